import type { ScrubRule } from "../../../shared/data-settings.inputs";

/**
 * The data settings ingest applies to a project's events (resolved by data-settings/): plain data,
 * so it travels to the payload workers inside the prepare context.
 */
export interface ScrubSettings {
  scrubDefaults: boolean;
  storeIpAddresses: boolean;
  sensitiveFields: string[];
  safeFields: string[];
  rules: ScrubRule[];
  /**
   * Hex key of the `hash` method, derived per organization from the server's secret
   * (data-settings/scrub-hash-key.ts): a hashed value cannot be guessed back by hashing candidates
   * without the secret, nor matched across organizations.
   */
  hashKey: string;
}

/** The product defaults: Sentry's default scrubbing on, IP addresses kept, no extra names or rules. */
export const DEFAULT_SCRUB_SETTINGS: Omit<ScrubSettings, "hashKey"> = {
  scrubDefaults: true,
  storeIpAddresses: true,
  sensitiveFields: [],
  safeFields: [],
  rules: [],
};
