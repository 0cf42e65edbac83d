import { and, count, desc, eq } from "drizzle-orm";
import type { AlertRuleScope, ListNotificationsInput, SetAlertEmailOptOutInput } from "../../shared/alert.inputs";
import type { AlertEmailOptOutView, AlertNotificationPage, AlertNotificationView, AlertTestResult } from "../../shared/alert.views";
import { alertEmailOptOuts, alertNotifications } from "../db/schema/index";
import { offsetOf, toPaged } from "../db/paging";
import { notFound } from "../errors";
import type { ServiceContext } from "../context";
import { requireProject } from "../projects/project-scope";
import { requirePermission } from "../organizations/permissions";
import { deliverNotification } from "./alert-delivery";
import { notificationRows } from "./notification-rows";
import { selectRules } from "./alert-rule.queries";

type NotificationRow = typeof alertNotifications.$inferSelect;

function notificationView(row: NotificationRow): AlertNotificationView {
  return {
    id: row.id,
    ruleId: row.ruleId,
    ruleName: row.ruleName,
    actionId: row.actionId,
    issueId: row.issueId,
    issueTitle: row.issueTitle,
    channel: row.channel as AlertNotificationView["channel"],
    kind: row.kind as AlertNotificationView["kind"],
    reason: row.reason,
    status: row.status as AlertNotificationView["status"],
    error: row.error,
    attempts: row.attempts,
    suppressedCount: row.suppressedCount,
    createdAt: row.createdAt,
    sentAt: row.sentAt,
  };
}

/** The project's notification log, newest first. */
export async function listNotifications(ctx: ServiceContext, input: ListNotificationsInput): Promise<AlertNotificationPage> {
  await requireProject(ctx, input.projectId);
  const scope = and(eq(alertNotifications.organizationId, ctx.org.organizationId), eq(alertNotifications.projectId, input.projectId));
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(alertNotifications)
      .where(scope)
      .orderBy(desc(alertNotifications.createdAt), desc(alertNotifications.id))
      .limit(input.size)
      .offset(offsetOf(input.page, input.size)),
    ctx.db.select({ total: count() }).from(alertNotifications).where(scope),
  ]);
  return toPaged(rows.map(notificationView), Number(total), input.page, input.size);
}

/**
 * "Send test": one test notification through every action of the rule, now, each logged with its
 * outcome (no retries: the person pressing the button wants the answer). Owners and admins only —
 * it sends to the rule's targets.
 */
export async function sendTestNotifications(ctx: ServiceContext, scope: AlertRuleScope): Promise<AlertTestResult> {
  await requireProject(ctx, scope.projectId);
  const [rule] = await selectRules(ctx.db, ctx.org.organizationId, scope.projectId, scope.ruleId);
  if (!rule) throw notFound("Alert rule");
  await requirePermission(ctx, "alert:manage");
  if (rule.actions.length === 0) return { notifications: [] };
  const inserted = await ctx.db
    .insert(alertNotifications)
    .values(notificationRows(rule, [{ issueId: null, issueTitle: null, reason: "test" }], { kind: "test", status: "pending" }))
    .returning({ id: alertNotifications.id });
  await Promise.all(inserted.map(({ id }) => deliverNotification(ctx.alerts.delivery, id, { retry: false })));
  const rows = await Promise.all(inserted.map(async ({ id }) => (await ctx.db.select().from(alertNotifications).where(eq(alertNotifications.id, id)))[0]));
  return { notifications: rows.map(notificationView) };
}

/** The caller's own alert-email opt-out for a project (any member, for themselves only). */
export async function getEmailOptOut(ctx: ServiceContext, projectId: string): Promise<AlertEmailOptOutView> {
  await requireProject(ctx, projectId);
  const [row] = await ctx.db
    .select({ userId: alertEmailOptOuts.userId })
    .from(alertEmailOptOuts)
    .where(and(eq(alertEmailOptOuts.userId, ctx.org.userId), eq(alertEmailOptOuts.projectId, projectId)));
  return { projectId, optedOut: Boolean(row) };
}

export async function setEmailOptOut(ctx: ServiceContext, input: SetAlertEmailOptOutInput): Promise<AlertEmailOptOutView> {
  await requireProject(ctx, input.projectId);
  if (input.optedOut)
    await ctx.db
      .insert(alertEmailOptOuts)
      .values({ userId: ctx.org.userId, organizationId: ctx.org.organizationId, projectId: input.projectId })
      .onConflictDoNothing();
  else await ctx.db.delete(alertEmailOptOuts).where(and(eq(alertEmailOptOuts.userId, ctx.org.userId), eq(alertEmailOptOuts.projectId, input.projectId)));
  return { projectId: input.projectId, optedOut: input.optedOut };
}
