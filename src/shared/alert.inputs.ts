import { z } from "zod";
import { ENVIRONMENTS } from "./environments";
import { pageInput } from "./paging";
import { ProjectIdInput } from "./project.inputs";
import { boundedText, hasNul, NUL_MESSAGE } from "./text.inputs";

export const ALERT_TRIGGER_TYPES = ["new_issue", "regression", "issue_frequency", "event_rate", "level", "new_issue_after_deploy"] as const;
export type AlertTriggerType = (typeof ALERT_TRIGGER_TYPES)[number];
export const ALERT_LEVELS = ["debug", "info", "warning", "error", "fatal"] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];
export const ALERT_CHANNELS = ["email", "webhook", "slack", "discord", "teams"] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];
export const URL_CHANNELS = ["webhook", "slack", "discord", "teams"] as const;
export const EMAIL_RECIPIENTS = ["members", "team", "users"] as const;

/** Spike and event-rate rules look back at most an hour (they read per-minute rollups). */
export const MAX_TRIGGER_MINUTES = 60;
export const DEFAULT_INTERVAL_MINUTES = 30;
export const DEFAULT_MAX_PER_HOUR = 20;

/**
 * The storm guard's fixed pace (alert-fire.ts), shown in the rule dialog in words: a burst of
 * alerts (issues alerting with less than BURST_QUIET_MINUTES between them) mails its first
 * BURST_INDIVIDUAL_ALERTS one by one and holds the rest for ONE digest, due DIGEST_DELAY_SECONDS
 * after the first held alert. A later digest of the same burst waits DIGEST_SPACING_MINUTES after
 * the previous one. Regressions are never counted in a burst nor held by one.
 */
export const BURST_INDIVIDUAL_ALERTS = 3;
export const BURST_QUIET_MINUTES = 5;
export const DIGEST_DELAY_SECONDS = 30;
export const DIGEST_SPACING_MINUTES = 5;

/** A rule's limits in words, with its numbers (the rule dialog, and the log's reason for a held alert). */
export function paceInWords(maxPerHour: number): string {
  return `at most ${BURST_INDIVIDUAL_ALERTS} mails per burst of issues and at most ${maxPerHour} mails per hour; then a digest within a minute`;
}

export const AlertTrigger = z
  .object({
    type: z.enum(ALERT_TRIGGER_TYPES, { message: "Please choose a trigger" }),
    /** issue_frequency / event_rate: more than `count` events in `minutes`; new_issue_after_deploy: a new issue at most `minutes` after a deploy. */
    count: z.number().int().min(1, "count must be at least 1").max(10_000_000).optional(),
    minutes: z.number().int().min(1, "minutes must be between 1 and 60").max(MAX_TRIGGER_MINUTES, "minutes must be between 1 and 60").optional(),
    /** level: an issue at this level or above. */
    level: z.enum(ALERT_LEVELS).optional(),
    /** new_issue: also fire when a resolved issue regresses (the default rule does). */
    includeRegressions: z.boolean().optional(),
  })
  .superRefine((trigger, ctx) => {
    if ((trigger.type === "issue_frequency" || trigger.type === "event_rate") && (trigger.count === undefined || trigger.minutes === undefined))
      ctx.addIssue({ code: "custom", path: ["count"], message: "A frequency trigger needs count and minutes" });
    if (trigger.type === "new_issue_after_deploy" && trigger.minutes === undefined)
      ctx.addIssue({ code: "custom", path: ["minutes"], message: "A deploy trigger needs minutes" });
    if (trigger.type === "level" && !trigger.level) ctx.addIssue({ code: "custom", path: ["level"], message: "A level trigger needs a level" });
  });
export type AlertTrigger = z.infer<typeof AlertTrigger>;

const TagFilter = z.object({
  key: boundedText(200, "Tag keys are at most 200 characters", { length: 1, message: "Please enter a tag key" }),
  value: boundedText(200, "Tag values are at most 200 characters", { length: 1, message: "Please enter a tag value" }),
});

export const AlertFilters = z.object({
  environments: z.array(z.enum(ENVIRONMENTS)).max(ENVIRONMENTS.length).optional(),
  minLevel: z.enum(ALERT_LEVELS).optional(),
  textContains: boundedText(200, "The text filter is at most 200 characters").optional(),
  tags: z.array(TagFilter).max(10, "At most 10 tag filters").optional(),
});
export type AlertFilters = z.infer<typeof AlertFilters>;

const WebhookUrl = z
  .string()
  .max(2000, "URLs are at most 2000 characters")
  .refine((value) => !hasNul(value), NUL_MESSAGE)
  .refine((value) => {
    try {
      const { protocol } = new URL(value);
      return protocol === "https:" || protocol === "http:";
    } catch {
      return false;
    }
  }, "Please enter an http:// or https:// URL");

export const EmailAction = z
  .object({
    id: z.uuid().optional(),
    type: z.literal("email"),
    to: z.enum(EMAIL_RECIPIENTS, { message: "Please choose who gets the email" }),
    teamId: z.string().min(1).max(100).optional(),
    userIds: z.array(z.string().min(1).max(100)).max(100).optional(),
  })
  .superRefine((action, ctx) => {
    if (action.to === "team" && !action.teamId) ctx.addIssue({ code: "custom", path: ["teamId"], message: "Please choose a team" });
    if (action.to === "users" && !action.userIds?.length) ctx.addIssue({ code: "custom", path: ["userIds"], message: "Please choose at least one member" });
  });

/** A URL action; `url` may be left out to keep an existing action's (sealed) URL and signing secret. */
export const UrlAction = z
  .object({
    id: z.uuid().optional(),
    type: z.enum(URL_CHANNELS),
    url: WebhookUrl.optional(),
  })
  .superRefine((action, ctx) => {
    if (!action.id && !action.url) ctx.addIssue({ code: "custom", path: ["url"], message: "Please enter the URL" });
  });

export const AlertActionInput = z.union([EmailAction, UrlAction]);
export type AlertActionInput = z.infer<typeof AlertActionInput>;

export const AlertRuleBody = z.object({
  name: boundedText(100, "Rule names are at most 100 characters", { length: 1, message: "Please enter a rule name" }),
  enabled: z.boolean().default(true),
  trigger: AlertTrigger,
  filters: AlertFilters.default({}),
  actions: z.array(AlertActionInput).min(1, "Please add at least one action").max(10, "At most 10 actions"),
  intervalMinutes: z
    .number()
    .int()
    .min(1, "The interval is 1 to 1440 minutes")
    .max(1440, "The interval is 1 to 1440 minutes")
    .default(DEFAULT_INTERVAL_MINUTES),
  maxPerHour: z.number().int().min(1, "The hourly limit is 1 to 1000").max(1000, "The hourly limit is 1 to 1000").default(DEFAULT_MAX_PER_HOUR),
});
export type AlertRuleBody = z.infer<typeof AlertRuleBody>;

export const AlertRuleScope = ProjectIdInput.extend({ ruleId: z.uuid("Invalid rule id") });
export type AlertRuleScope = z.infer<typeof AlertRuleScope>;

export const CreateAlertRuleInput = ProjectIdInput.extend(AlertRuleBody.shape);
export type CreateAlertRuleInput = z.infer<typeof CreateAlertRuleInput>;

export const UpdateAlertRuleInput = AlertRuleScope.extend(AlertRuleBody.shape);
export type UpdateAlertRuleInput = z.infer<typeof UpdateAlertRuleInput>;

/** Snoozes a rule for `minutes` (0 wakes it). */
export const SnoozeAlertRuleInput = AlertRuleScope.extend({
  minutes: z
    .number()
    .int()
    .min(0)
    .max(30 * 24 * 60, "At most 30 days"),
});
export type SnoozeAlertRuleInput = z.infer<typeof SnoozeAlertRuleInput>;

export const ListNotificationsInput = ProjectIdInput.extend(pageInput(25));
export type ListNotificationsInput = z.infer<typeof ListNotificationsInput>;

export const SetAlertEmailOptOutInput = ProjectIdInput.extend({ optedOut: z.boolean() });
export type SetAlertEmailOptOutInput = z.infer<typeof SetAlertEmailOptOutInput>;
