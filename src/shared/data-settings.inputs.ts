import { z } from "zod";
import { ProjectIdInput } from "./project.inputs";
import { hasNul, NUL_MESSAGE } from "./text.inputs";

/**
 * Server-side scrubbing (issue 35): what a value rule finds, and what it puts in its place.
 * `password` takes whole values under password-like keys; the others find substrings in every text.
 */
export const SCRUB_RULE_TYPES = ["creditcard", "email", "ip", "iban", "uuid", "password", "pattern"] as const;
export type ScrubRuleType = (typeof SCRUB_RULE_TYPES)[number];
/** mask: `*` for each character (length kept); remove: `[Filtered]`; hash: a keyed hash; replace: the rule's replacement. */
export const SCRUB_METHODS = ["mask", "remove", "hash", "replace"] as const;
export type ScrubMethod = (typeof SCRUB_METHODS)[number];

/**
 * Caps that keep one tenant's settings cheap at ingest: every rule runs over every text of every
 * event. Patterns also must run in linear time (the server checks: data-settings/linear-regex.ts).
 */
export const MAX_SCRUB_RULES = 20;
export const MAX_FIELD_NAMES = 50;
export const MAX_FIELD_NAME_LENGTH = 100;
export const MAX_PATTERN_LENGTH = 200;
export const MAX_REPLACEMENT_LENGTH = 100;

const isRegExp = (pattern: string) => {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
};

export const ScrubRule = z
  .object({
    type: z.enum(SCRUB_RULE_TYPES, { message: `type is one of ${SCRUB_RULE_TYPES.join(", ")}` }),
    pattern: z.string().max(MAX_PATTERN_LENGTH, `Patterns are at most ${MAX_PATTERN_LENGTH} characters`).nullish(),
    method: z.enum(SCRUB_METHODS, { message: `method is one of ${SCRUB_METHODS.join(", ")}` }),
    replacement: z.string().max(MAX_REPLACEMENT_LENGTH, `Replacements are at most ${MAX_REPLACEMENT_LENGTH} characters`).nullish(),
  })
  .superRefine((rule, ctx) => {
    if (rule.type === "pattern") {
      if (!rule.pattern) ctx.addIssue({ code: "custom", path: ["pattern"], message: "A pattern rule needs a pattern" });
      else if (hasNul(rule.pattern)) ctx.addIssue({ code: "custom", path: ["pattern"], message: NUL_MESSAGE });
      else if (!isRegExp(rule.pattern)) ctx.addIssue({ code: "custom", path: ["pattern"], message: "The pattern is not a valid regular expression" });
    }
    if (rule.method === "replace" && !rule.replacement) {
      ctx.addIssue({ code: "custom", path: ["replacement"], message: "The replace method needs a replacement" });
    }
    if (rule.replacement && hasNul(rule.replacement)) ctx.addIssue({ code: "custom", path: ["replacement"], message: NUL_MESSAGE });
  })
  .transform((rule) => ({
    type: rule.type,
    method: rule.method,
    ...(rule.type === "pattern" ? { pattern: rule.pattern! } : {}),
    ...(rule.method === "replace" ? { replacement: rule.replacement! } : {}),
  }));
export type ScrubRule = z.infer<typeof ScrubRule>;
export type ScrubRuleRaw = z.input<typeof ScrubRule>;

/**
 * Days exceptions are kept (issue 35): at least a day, at most ten years. The hosted deployment
 * also caps what applies by the organization's plan; the value is stored as chosen either way.
 */
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 3650;
const RETENTION_DAYS_MESSAGE = `retentionDays is a whole number of days from ${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}`;
export const RetentionDays = z
  .number({ message: RETENTION_DAYS_MESSAGE })
  .int(RETENTION_DAYS_MESSAGE)
  .min(MIN_RETENTION_DAYS, RETENTION_DAYS_MESSAGE)
  .max(MAX_RETENTION_DAYS, RETENTION_DAYS_MESSAGE);

const FieldName = z
  .string()
  .trim()
  .min(1, "Field names are not empty")
  .max(MAX_FIELD_NAME_LENGTH, `Field names are at most ${MAX_FIELD_NAME_LENGTH} characters`)
  .refine((value) => !hasNul(value), NUL_MESSAGE);
const FieldNames = z.array(FieldName).max(MAX_FIELD_NAMES, `At most ${MAX_FIELD_NAMES} field names`);
const Rules = z.array(ScrubRule).max(MAX_SCRUB_RULES, `At most ${MAX_SCRUB_RULES} rules`);

/**
 * One layer of data settings as written (organization or project). A field absent or null means
 * "as the layer above says": the organization's for a project, the product default for an organization.
 */
const settingsLayer = {
  retentionDays: RetentionDays.nullish(),
  scrubDefaults: z.boolean().nullish(),
  storeIpAddresses: z.boolean().nullish(),
  sensitiveFields: FieldNames.nullish(),
  safeFields: FieldNames.nullish(),
  rules: Rules.nullish(),
};

export const UpdateOrganizationDataSettingsInput = z.object(settingsLayer);
export type UpdateOrganizationDataSettingsInput = z.infer<typeof UpdateOrganizationDataSettingsInput>;

export const ProjectDataSettingsInput = ProjectIdInput;
export type ProjectDataSettingsInput = z.infer<typeof ProjectDataSettingsInput>;

export const UpdateProjectDataSettingsInput = ProjectIdInput.extend(settingsLayer);
export type UpdateProjectDataSettingsInput = z.infer<typeof UpdateProjectDataSettingsInput>;
