import { and, eq, sql } from "drizzle-orm";
import type { AlertTrigger } from "../../shared/alert.inputs";
import type { Mailer } from "../auth/mailer";
import type { Db } from "../db/client";
import { alertActions, alertNotifications, alertRules, projects } from "../db/schema/index";
import type { Logger } from "../logger";
import { OutboundFailedError, OutboundRefusedError, type OutboundHttp } from "../outbound/outbound-http";
import type { SecretBox } from "../secrets/secret-box";
import { openActionUrl, openSigningSecret } from "./alert-action-secrets";
import type { AlertMessage, AlertReason } from "./alert-message";
import { emailRecipients } from "./alert-recipients";
import type { EmailRecipients } from "./alert-rule.view";
import { loadAlertIssue } from "./alert-subject";
import { alertEmail } from "./channels/email";
import { discordBody } from "./channels/discord";
import { slackBody } from "./channels/slack";
import { teamsBody } from "./channels/teams";
import { SIGNATURE_HEADER, signatureHeader, webhookBody } from "./channels/webhook";

export interface DeliveryDeps {
  db: Db;
  mailer: Mailer;
  outbound: OutboundHttp;
  secretBox: SecretBox;
  logger: Logger;
  apiUrl: string;
}

/** Attempts of one notification before it is marked failed (the job queue's backoff spaces them). */
export const MAX_DELIVERY_ATTEMPTS = 4;

/** A failure worth no retry: the receiver refused the request itself, or the policy refused the target. */
class PermanentDeliveryError extends Error {}

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

async function settle(db: Db, id: string, status: "sent" | "failed" | "suppressed", error: string | null) {
  await db
    .update(alertNotifications)
    .set({ status, error: error?.slice(0, 1000) ?? null, sentAt: status === "sent" ? new Date() : null })
    .where(and(eq(alertNotifications.id, id), eq(alertNotifications.status, "pending")));
}

async function send(
  deps: DeliveryDeps,
  notification: NotificationRow,
  action: typeof alertActions.$inferSelect,
  message: AlertMessage,
): Promise<"sent" | "no recipients"> {
  if (action.type === "email") {
    const recipients = JSON.parse(action.recipients ?? '{"to":"members"}') as EmailRecipients;
    const to = await emailRecipients(deps.db, notification.organizationId, notification.projectId, recipients);
    if (to.length === 0) return "no recipients";
    const mail = alertEmail(message);
    // One mail per recipient: members do not see each other's addresses.
    for (const address of to)
      await deps.mailer.send({ kind: "alert", to: address, subject: mail.subject, text: mail.text, html: mail.html, actionUrl: message.url });
    return "sent";
  }
  if (!action.urlSealed) throw new PermanentDeliveryError("The action has no URL");
  const url = openActionUrl(deps.secretBox, notification.projectId, action.id, action.urlSealed);
  const body = JSON.stringify(channelBody(action.type, message));
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (action.type === "webhook" && action.signingSecretSealed) {
    const secret = openSigningSecret(deps.secretBox, notification.projectId, action.id, action.signingSecretSealed);
    headers[SIGNATURE_HEADER] = signatureHeader(secret, body);
  }
  const response = await deps.outbound.request({ url, method: "POST", headers, body });
  if (response.status >= 200 && response.status < 300) return "sent";
  const detail = `The receiver answered HTTP ${response.status}`;
  // 4xx (except 408/429) means the request itself is wrong (a revoked Slack URL): retrying cannot help.
  if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) throw new PermanentDeliveryError(detail);
  throw new Error(detail);
}

function channelBody(type: string, message: AlertMessage): unknown {
  switch (type) {
    case "slack":
      return slackBody(message);
    case "discord":
      return discordBody(message);
    case "teams":
      return teamsBody(message);
    default:
      return webhookBody(message);
  }
}
