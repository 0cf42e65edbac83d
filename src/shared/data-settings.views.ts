import { z } from "zod";
import { PLANS } from "./billing.inputs";
import { SCRUB_METHODS, SCRUB_RULE_TYPES } from "./data-settings.inputs";

const ScrubRuleView = z.object({
  type: z.enum(SCRUB_RULE_TYPES),
  method: z.enum(SCRUB_METHODS),
  pattern: z.string().optional(),
  replacement: z.string().optional(),
});

/** The settings ingest applies: every field decided (product default, organization, project). */
export const DataSettingsValues = z.object({
  retentionDays: z.number().int().describe("Days exceptions are kept; on the hosted deployment at most the plan's days (see `retention`)"),
  scrubDefaults: z.boolean().describe("Sentry's default sensitive key names and Luhn-checked card numbers become [Filtered]"),
  storeIpAddresses: z.boolean().describe("false drops every IP address (request, user, {{auto}}) before storing"),
  sensitiveFields: z.array(z.string()).describe("Extra key names whose values are scrubbed (matched case-insensitively anywhere in a key)"),
  safeFields: z.array(z.string()).describe("Key names never scrubbed (exact, case-insensitive)"),
  rules: z.array(ScrubRuleView),
});
export type DataSettingsValues = z.infer<typeof DataSettingsValues>;

/** One layer as stored: null means "inherit" (from the organization, or the product default). */
export const DataSettingsLayer = z.object({
  retentionDays: z.number().int().nullable(),
  scrubDefaults: z.boolean().nullable(),
  storeIpAddresses: z.boolean().nullable(),
  sensitiveFields: z.array(z.string()).nullable(),
  safeFields: z.array(z.string()).nullable(),
  rules: z.array(ScrubRuleView).nullable(),
});
export type DataSettingsLayer = z.infer<typeof DataSettingsLayer>;

/**
 * Where the effective retention comes from. A value above the plan's cap is stored as chosen and
 * applies capped (`capped`), so an upgrade restores it without being entered again.
 */
export const RetentionLimits = z.object({
  productDefault: z.number().int().describe("Days kept where neither the organization nor the project chose (RETENTION_DAYS)"),
  plan: z.enum(PLANS).nullable().describe("The organization's plan on the hosted deployment; null when self-hosted (no plans)"),
  planCap: z.number().int().nullable().describe("The most days the plan keeps; null when self-hosted (no cap)"),
  capped: z.boolean().describe("The days chosen (or inherited) exceed planCap: `effective.retentionDays` is the cap"),
});
export type RetentionLimits = z.infer<typeof RetentionLimits>;

/** An organization's data settings: what it set (null: product default), what applies, and today's scrubbed values. */
export const OrganizationDataSettings = z.object({
  settings: DataSettingsLayer,
  effective: DataSettingsValues,
  retention: RetentionLimits,
  scrubbedToday: z.number().int().describe("Values scrubbed at ingest today (UTC) across the organization's projects"),
});
export type OrganizationDataSettings = z.infer<typeof OrganizationDataSettings>;

/** A project's data settings: its overrides (null: as the organization says), what applies, and today's scrubbed values. */
export const ProjectDataSettings = z.object({
  projectId: z.string(),
  overrides: DataSettingsLayer,
  organization: DataSettingsValues.describe("What the project inherits where it overrides nothing"),
  effective: DataSettingsValues,
  retention: RetentionLimits,
  scrubbedToday: z.number().int().describe("Values scrubbed at ingest today (UTC) in this project"),
});
export type ProjectDataSettings = z.infer<typeof ProjectDataSettings>;
