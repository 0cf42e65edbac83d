import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { alertNotifications } from "../db/schema/index";
import type { DatabaseJobQueue } from "../jobs/database-job-queue";
import type { AlertReason } from "./alert-message";
import type { RuleWithActions } from "./alert-rule.queries";

export const DELIVER_JOB = "alert.deliver";
export const DIGEST_JOB = "alert.digest";

/** The digest of an hour goes out this long after the hour ends. */
const DIGEST_DELAY_MS = 60_000;

export interface FireOutcome {
  /** sent: notifications were recorded and their delivery scheduled; suppressed: the hourly cap held them; repeat: within the interval. */
  outcome: "sent" | "suppressed" | "repeat";
  notificationIds: string[];
}

/**
 * The storm guard and the transactional outbox, in ONE transaction:
 * 1. once per interval per rule and subject (an issue, or the project for rate rules): a
 *    compare-and-set on alert_rule_issue_fires — concurrent evaluations on two replicas race for
 *    the same row and only one wins, so one issue never alerts twice in the interval;
 * 2. at most maxPerHour notifications per rule and UTC hour: the hour's counter row is locked,
 *    and beyond the cap the attempt is logged as suppressed and the hour's digest is scheduled;
 * 3. otherwise one notification per action is recorded and its delivery job enqueued in the same
 *    transaction, so a crash leaves both or neither (a restart loses nothing, sends nothing twice).
 * Repeats within the interval are counted toward the hour's digest but not logged one by one.
 */
export async function fireRule(
  db: Db,
  jobs: DatabaseJobQueue,
  rule: RuleWithActions,
  subject: { id: string; issueId: string | null; issueTitle: string | null },
  reason: AlertReason,
): Promise<FireOutcome> {
  const result = await db.transaction(async (tx) => {
    const [fresh] = await executeRows<{ ok: number }>(
      tx,
      sql`insert into alert_rule_issue_fires (rule_id, subject_id, reason, last_fired_at) values (${rule.id}::uuid, ${subject.id}::uuid, ${reason}, now())
          on conflict (rule_id, subject_id, reason) do update set last_fired_at = now()
          where alert_rule_issue_fires.last_fired_at <= now() - ${`${rule.intervalMinutes} minutes`}::interval
          returning 1 as ok`,
    );
    const [hour] = await executeRows<{ hour: string; sent: number; suppressed: number }>(
      tx,
      sql`insert into alert_rule_hours (rule_id, hour) values (${rule.id}::uuid, date_trunc('hour', now()))
          on conflict (rule_id, hour) do update set sent = alert_rule_hours.sent
          returning hour::text, sent, suppressed`,
    );
    const overCap = hour.sent >= rule.maxPerHour;
    if (!fresh || overCap) {
      await tx.execute(sql`update alert_rule_hours set suppressed = suppressed + 1 where rule_id = ${rule.id}::uuid and hour = ${hour.hour}::timestamptz`);
      if (hour.suppressed === 0) {
        const runAt = new Date(new Date(hour.hour).getTime() + 3_600_000 + DIGEST_DELAY_MS);
        await jobs.enqueueWith(tx, DIGEST_JOB, { ruleId: rule.id, hour: hour.hour }, { singletonKey: `${rule.id}:${hour.hour}`, startAfter: runAt });
      }
      if (!fresh) return { outcome: "repeat" as const, notificationIds: [] };
      const rows = rule.actions.map((action) => ({
        organizationId: rule.organizationId,
        projectId: rule.projectId,
        ruleId: rule.id,
        ruleName: rule.name,
        actionId: action.id,
        issueId: subject.issueId,
        issueTitle: subject.issueTitle,
        channel: action.type,
        kind: "alert",
        reason,
        status: "suppressed",
        error: `Held back by the storm guard: more than ${rule.maxPerHour} notifications of this rule this hour (a digest follows)`,
      }));
      if (rows.length > 0) await tx.insert(alertNotifications).values(rows);
      return { outcome: "suppressed" as const, notificationIds: [] };
    }
    await tx.execute(sql`update alert_rule_hours set sent = sent + 1 where rule_id = ${rule.id}::uuid and hour = ${hour.hour}::timestamptz`);
    const notificationIds = await recordNotifications(tx, jobs, rule, subject, "alert", reason, null);
    return { outcome: "sent" as const, notificationIds };
  });
  if (result.notificationIds.length > 0) jobs.wake();
  return result;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** One pending notification per action, each with its delivery job, in the caller's transaction. */
export async function recordNotifications(
  tx: Tx,
  jobs: DatabaseJobQueue,
  rule: RuleWithActions,
  subject: { issueId: string | null; issueTitle: string | null },
  kind: "alert" | "digest",
  reason: AlertReason,
  suppressedCount: number | null,
): Promise<string[]> {
  if (rule.actions.length === 0) return [];
  const inserted = await tx
    .insert(alertNotifications)
    .values(
      rule.actions.map((action) => ({
        organizationId: rule.organizationId,
        projectId: rule.projectId,
        ruleId: rule.id,
        ruleName: rule.name,
        actionId: action.id,
        issueId: subject.issueId,
        issueTitle: subject.issueTitle,
        channel: action.type,
        kind,
        reason,
        status: "pending",
        suppressedCount,
      })),
    )
    .returning({ id: alertNotifications.id });
  for (const { id } of inserted) await jobs.enqueueWith(tx, DELIVER_JOB, { notificationId: id }, { singletonKey: id });
  return inserted.map((row) => row.id);
}
