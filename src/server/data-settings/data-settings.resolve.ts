import type { DataSettingsLayer, DataSettingsValues } from "../../shared/data-settings.views";
import { DEFAULT_SCRUB_SETTINGS } from "../ingest/normalize/scrub-settings";

/** The product defaults as values (what an organization that set nothing gets). */
export const PRODUCT_DATA_SETTINGS: DataSettingsValues = { ...DEFAULT_SCRUB_SETTINGS };

/** A layer over the values beneath it: each field it sets (non-null) wins, the rest is inherited. */
export function overlay(base: DataSettingsValues, layer: DataSettingsLayer | null): DataSettingsValues {
  if (!layer) return base;
  return {
    scrubDefaults: layer.scrubDefaults ?? base.scrubDefaults,
    storeIpAddresses: layer.storeIpAddresses ?? base.storeIpAddresses,
    sensitiveFields: layer.sensitiveFields ?? base.sensitiveFields,
    safeFields: layer.safeFields ?? base.safeFields,
    rules: layer.rules ?? base.rules,
  };
}

/** Product default → organization → project. */
export const resolveDataSettings = (organization: DataSettingsLayer, project: DataSettingsLayer | null) =>
  overlay(overlay(PRODUCT_DATA_SETTINGS, organization), project);
