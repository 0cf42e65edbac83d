import { and, asc, eq, sql } from "drizzle-orm";
import type { AlertTrigger } from "../../shared/alert.inputs";
import type { Db } from "../db/client";
import { alertActions, alertNotifications, alertRules, projects } from "../db/schema/index";
import type { Logger } from "../logger";
import { OutboundFailedError, OutboundRefusedError } from "../outbound/outbound-http";
import { DIGEST_LISTED, type AlertMessage, type AlertReason, type DigestEntry } from "./alert-message";
import { loadAlertIssue, loadAlertIssues } from "./alert-subject";
import { PermanentDeliveryError, type ChannelDeps, type ChannelOutcome } from "./channels/alert-channel";
import { channelDefinition } from "./channels/alert-channels";

export interface DeliveryDeps extends ChannelDeps {
  logger: Logger;
  apiUrl: string;
}

/** Attempts of one notification before it is marked failed (the job queue's backoff spaces them). */
export const MAX_DELIVERY_ATTEMPTS = 4;

const issueUrl = (apiUrl: string, projectId: string, issueId: string | null) =>
  issueId
    ? `${apiUrl.replace(/\/$/, "")}/dashboard/issues/${issueId}?projectId=${projectId}`
    : `${apiUrl.replace(/\/$/, "")}/dashboard/issues?projectId=${projectId}`;

type NotificationRow = typeof alertNotifications.$inferSelect;

/**
 * Delivers one recorded notification through its action. Idempotent: only a `pending`
 * notification is sent, and it is marked sent in the same breath as the channel accepted it.
 * Resolves when the notification is settled (sent or failed); rejects — so the job queue retries
 * it with backoff — on a failure that may pass, until MAX_DELIVERY_ATTEMPTS.
 */
export async function deliverNotification(deps: DeliveryDeps, notificationId: string, options: { retry: boolean } = { retry: true }): Promise<void> {
  const [row] = await deps.db
    .select({ notification: alertNotifications, action: alertActions, rule: alertRules, projectName: projects.name })
    .from(alertNotifications)
    .innerJoin(projects, eq(projects.id, alertNotifications.projectId))
    .leftJoin(alertActions, eq(alertActions.id, alertNotifications.actionId))
    .leftJoin(alertRules, eq(alertRules.id, alertNotifications.ruleId))
    .where(eq(alertNotifications.id, notificationId));
  if (!row || row.notification.status !== "pending") return;
  const { notification, action, rule } = row;
  if (!action || !rule) return settle(deps.db, notification.id, "failed", "The rule or action was deleted before delivery");

  const [{ attempts }] = await deps.db
    .update(alertNotifications)
    .set({ attempts: sql`${alertNotifications.attempts} + 1` })
    .where(eq(alertNotifications.id, notification.id))
    .returning({ attempts: alertNotifications.attempts });

  const issue = notification.issueId ? await loadAlertIssue(deps.db, notification.organizationId, notification.projectId, notification.issueId) : null;
  const message: AlertMessage = {
    kind: notification.kind as AlertMessage["kind"],
    reason: notification.reason as AlertReason,
    rule: { id: rule.id, name: rule.name },
    project: { id: notification.projectId, name: row.projectName },
    issue,
    url: issueUrl(deps.apiUrl, notification.projectId, notification.issueId),
    trigger: JSON.parse(rule.trigger) as AlertTrigger,
    suppressedCount: notification.suppressedCount ?? undefined,
    ...(notification.kind === "digest" && notification.suppressedCount !== null ? { digest: await digestEntries(deps, notification) } : {}),
  };
  try {
    const note = await send(deps, notification, action, message);
    await settle(
      deps.db,
      notification.id,
      note === "no recipients" ? "suppressed" : "sent",
      note === "no recipients" ? "No recipients: every addressed member opted out or has no verified email" : null,
    );
  } catch (error) {
    // `reason` is stored and shown to the tenant; `detail` (the address a refused target resolved to) goes to the server log only.
    const reason = error instanceof Error ? error.message : String(error);
    const detail = error instanceof OutboundRefusedError || error instanceof OutboundFailedError ? error.detail : undefined;
    const permanent = error instanceof OutboundRefusedError || error instanceof PermanentDeliveryError;
    if (permanent || !options.retry || attempts >= MAX_DELIVERY_ATTEMPTS) {
      deps.logger.warn("alert delivery failed", { notificationId: notification.id, channel: notification.channel, attempts, reason, detail });
      return settle(deps.db, notification.id, "failed", reason);
    }
    await deps.db.update(alertNotifications).set({ error: reason }).where(eq(alertNotifications.id, notification.id));
    throw error;
  }
}

/** The alerts a digest took (alert-digest.ts), oldest first, with their issues as they are now. */
async function digestEntries(deps: DeliveryDeps, digest: NotificationRow): Promise<DigestEntry[]> {
  const held = await deps.db
    .selectDistinctOn([alertNotifications.issueId, alertNotifications.reason], {
      issueId: alertNotifications.issueId,
      issueTitle: alertNotifications.issueTitle,
      reason: alertNotifications.reason,
      createdAt: alertNotifications.createdAt,
    })
    .from(alertNotifications)
    .where(and(eq(alertNotifications.organizationId, digest.organizationId), eq(alertNotifications.digestId, digest.id)))
    .orderBy(alertNotifications.issueId, alertNotifications.reason, asc(alertNotifications.createdAt));
  held.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const listed = held.slice(0, DIGEST_LISTED);
  const issues = await loadAlertIssues(
    deps.db,
    digest.organizationId,
    digest.projectId,
    listed.flatMap((entry) => (entry.issueId ? [entry.issueId] : [])),
  );
  return listed.map((entry) => {
    const issue = entry.issueId ? issues.get(entry.issueId) : undefined;
    return {
      issueId: entry.issueId,
      title: issue?.title ?? entry.issueTitle ?? "The project's event rate",
      reason: entry.reason as AlertReason,
      url: issueUrl(deps.apiUrl, digest.projectId, entry.issueId),
      eventCount: issue?.eventCount ?? null,
    };
  });
}

async function settle(db: Db, id: string, status: "sent" | "failed" | "suppressed", error: string | null) {
  await db
    .update(alertNotifications)
    .set({ status, error: error?.slice(0, 1000) ?? null, sentAt: status === "sent" ? new Date() : null })
    .where(and(eq(alertNotifications.id, id), eq(alertNotifications.status, "pending")));
}

/** Sends through the channel of the action's kind (channels/alert-channels.ts). */
async function send(
  deps: DeliveryDeps,
  notification: NotificationRow,
  action: typeof alertActions.$inferSelect,
  message: AlertMessage,
): Promise<ChannelOutcome> {
  const channel = channelDefinition(action.type);
  if (!channel) throw new PermanentDeliveryError(`Unknown channel "${action.type}"`);
  return channel.send({ deps, notification, action, message });
}
