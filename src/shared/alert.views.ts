import { z } from "zod";
import { ALERT_CHANNELS, AlertFilters, AlertTrigger, EMAIL_RECIPIENTS } from "./alert.inputs";
import { pagedView } from "./paged.views";

export const AlertActionView = z.object({
  id: z.uuid(),
  type: z.enum(ALERT_CHANNELS),
  to: z.enum(EMAIL_RECIPIENTS).optional(),
  teamId: z.string().optional(),
  userIds: z.array(z.string()).optional(),
  /** Where a URL action points (scheme and host only: Slack, Discord and Teams URLs are credentials). */
  urlHost: z.string().optional(),
  /** A webhook action's signing secret: only in the answer that created the action, never again. */
  secret: z.string().optional(),
});
export type AlertActionView = z.infer<typeof AlertActionView>;

export const AlertRuleView = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  name: z.string(),
  enabled: z.boolean(),
  trigger: AlertTrigger,
  filters: AlertFilters,
  actions: z.array(AlertActionView),
  intervalMinutes: z.number().int(),
  maxPerHour: z.number().int(),
  snoozedUntil: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type AlertRuleView = z.infer<typeof AlertRuleView>;

export const AlertRuleList = z.array(AlertRuleView);

export const NOTIFICATION_STATUSES = ["pending", "sent", "suppressed", "failed"] as const;

export const AlertNotificationView = z.object({
  id: z.uuid(),
  ruleId: z.uuid().nullable(),
  ruleName: z.string(),
  actionId: z.uuid().nullable(),
  issueId: z.uuid().nullable(),
  issueTitle: z.string().nullable(),
  channel: z.enum(ALERT_CHANNELS),
  kind: z.enum(["alert", "digest", "test"]),
  reason: z.string(),
  status: z.enum(NOTIFICATION_STATUSES),
  error: z.string().nullable(),
  attempts: z.number().int(),
  suppressedCount: z.number().int().nullable(),
  createdAt: z.date(),
  sentAt: z.date().nullable(),
});
export type AlertNotificationView = z.infer<typeof AlertNotificationView>;

export const AlertNotificationPage = pagedView(AlertNotificationView);
export type AlertNotificationPage = z.infer<typeof AlertNotificationPage>;

export const AlertTestResult = z.object({ notifications: z.array(AlertNotificationView) });
export type AlertTestResult = z.infer<typeof AlertTestResult>;

export const DeletedAlertRule = z.object({ id: z.uuid() });

export const AlertEmailOptOutView = z.object({ projectId: z.uuid(), optedOut: z.boolean() });
export type AlertEmailOptOutView = z.infer<typeof AlertEmailOptOutView>;
