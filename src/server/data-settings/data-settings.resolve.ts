import type { DataSettingsLayer, DataSettingsValues } from "../../shared/data-settings.views";
import { DEFAULT_SCRUB_SETTINGS } from "../ingest/normalize/scrub-settings";
import { effectiveRetention, type RetentionPolicy } from "./retention-policy";

/** The scrubbing part of the settings: what ingest applies (retention is the maintenance job's). */
export type ScrubValues = Omit<DataSettingsValues, "retentionDays">;

/** The product's scrubbing defaults as values (what an organization that set nothing gets). */
export const PRODUCT_SCRUB_SETTINGS: ScrubValues = { ...DEFAULT_SCRUB_SETTINGS };

/** A layer over the values beneath it: each field it sets (non-null) wins, the rest is inherited. */
export function overlay(base: ScrubValues, layer: DataSettingsLayer | null): ScrubValues {
  if (!layer) return base;
  return {
    scrubDefaults: layer.scrubDefaults ?? base.scrubDefaults,
    storeIpAddresses: layer.storeIpAddresses ?? base.storeIpAddresses,
    sensitiveFields: layer.sensitiveFields ?? base.sensitiveFields,
    safeFields: layer.safeFields ?? base.safeFields,
    rules: layer.rules ?? base.rules,
  };
}

/** Scrubbing: product default → organization → project. */
export const resolveScrubSettings = (organization: DataSettingsLayer, project: DataSettingsLayer | null) =>
  overlay(overlay(PRODUCT_SCRUB_SETTINGS, organization), project);

/**
 * Every setting, as the data-settings answers show it: scrubbing as above, retention by the same
 * layers and then the plan's cap (`capped`: the cap, not the layers, decided the days).
 */
export function resolveDataSettings(
  organization: DataSettingsLayer,
  project: DataSettingsLayer | null,
  policy: RetentionPolicy,
): { values: DataSettingsValues; capped: boolean } {
  const retention = effectiveRetention(policy, organization.retentionDays, project?.retentionDays ?? null);
  return { values: { retentionDays: retention.days, ...resolveScrubSettings(organization, project) }, capped: retention.capped };
}
