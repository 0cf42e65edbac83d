import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import type { JobQueue } from "../jobs/job-queue";
import type { AlertReason } from "./alert-message";
import type { RuleWithActions } from "./alert-rule.queries";
import { insertNotifications, notificationRows, type NotificationSubject } from "./notification-rows";

/** The digest of an hour goes out this long after the hour ends. */
const DIGEST_DELAY_MS = 60_000;

/** What a rule fires about: an issue, or the project for rate rules (issueId null), and why. */
export interface FireSubject extends NotificationSubject {
  id: string;
}

/** How one rule's firing went, counted over its subjects. */
export interface FireOutcome {
  /** Notifications recorded with their delivery scheduled (one per action). */
  notificationIds: string[];
  /** Subjects held back by the hourly cap (logged as suppressed; the hour's digest counts them). */
  suppressed: number;
  /** Subjects that already fired within the interval (counted toward the digest, not logged). */
  repeats: number;
}

const keyOf = (subject: Pick<FireSubject, "id" | "reason">) => `${subject.id} ${subject.reason}`;

/**
 * The storm guard and the transactional outbox for one rule and the subjects one evaluation found,
 * in ONE transaction (a burst of new issues costs one commit per rule, not one per issue):
 * 1. the rule's hour row is locked first: two evaluations of one rule (two replicas, or two jobs)
 *    queue behind each other here, so they never deadlock on the rows below;
 * 2. once per interval per rule and subject: a compare-and-set on alert_rule_issue_fires for all
 *    subjects in one statement — only the subjects whose row it could claim are fresh, so one issue
 *    never alerts twice in the interval;
 * 3. at most maxPerHour notifications per rule and UTC hour, counted subject by subject: beyond the
 *    cap the attempt is logged as suppressed and the hour's digest is scheduled;
 * 4. otherwise one notification per action is recorded and its delivery job enqueued in the same
 *    transaction, so a crash leaves both or neither (a restart loses nothing, sends nothing twice).
 * Repeats within the interval are counted toward the hour's digest but not logged one by one.
 */
export async function fireRule(db: Db, jobs: JobQueue, rule: RuleWithActions, subjects: FireSubject[]): Promise<FireOutcome> {
  const unique = [...new Map(subjects.map((subject) => [keyOf(subject), subject])).values()];
  if (unique.length === 0) return { notificationIds: [], suppressed: 0, repeats: 0 };
  const result = await db.transaction(async (tx) => {
    const [hour] = await executeRows<{ hour: string; sent: number; suppressed: number }>(
      tx,
      sql`insert into alert_rule_hours (rule_id, hour) values (${rule.id}::uuid, date_trunc('hour', now()))
          on conflict (rule_id, hour) do update set sent = alert_rule_hours.sent
          returning hour::text, sent, suppressed`,
    );
    const claimed = await executeRows<{ subject_id: string; reason: string }>(
      tx,
      sql`insert into alert_rule_issue_fires (rule_id, subject_id, reason, last_fired_at)
          select ${rule.id}::uuid, s.subject_id, s.reason, now()
          from json_to_recordset(${JSON.stringify(unique.map((subject) => ({ subject_id: subject.id, reason: subject.reason })))}::json)
               as s(subject_id uuid, reason text)
          order by s.subject_id, s.reason
          on conflict (rule_id, subject_id, reason) do update set last_fired_at = now()
          where alert_rule_issue_fires.last_fired_at <= now() - ${`${rule.intervalMinutes} minutes`}::interval
          returning subject_id::text, reason`,
    );
    const fresh = new Set(claimed.map((row) => keyOf({ id: row.subject_id, reason: row.reason as AlertReason })));
    const toSend: FireSubject[] = [];
    const held: FireSubject[] = [];
    let repeats = 0;
    for (const subject of unique) {
      if (!fresh.has(keyOf(subject))) repeats += 1;
      else if (hour.sent + toSend.length >= rule.maxPerHour) held.push(subject);
      else toSend.push(subject);
    }
    const suppressed = held.length + repeats;
    if (toSend.length > 0 || suppressed > 0)
      await tx.execute(
        sql`update alert_rule_hours set sent = sent + ${toSend.length}, suppressed = suppressed + ${suppressed}
            where rule_id = ${rule.id}::uuid and hour = ${hour.hour}::timestamptz`,
      );
    // The first suppression of the hour schedules its digest.
    if (suppressed > 0 && hour.suppressed === 0) {
      const runAt = new Date(new Date(hour.hour).getTime() + 3_600_000 + DIGEST_DELAY_MS);
      await jobs.enqueueWith(tx, "alert.digest", { ruleId: rule.id, hour: hour.hour }, { singletonKey: `${rule.id}:${hour.hour}`, startAfter: runAt });
    }
    await recordSuppressed(tx, rule, held);
    const notificationIds = await recordNotifications(tx, jobs, rule, toSend, "alert", null);
    return { notificationIds, suppressed: held.length, repeats };
  });
  if (result.notificationIds.length > 0) jobs.wake();
  return result;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** One suppressed entry per action and held-back subject, for the notification log. */
async function recordSuppressed(tx: Tx, rule: RuleWithActions, held: FireSubject[]) {
  await insertNotifications(
    tx,
    notificationRows(rule, held, {
      kind: "alert",
      status: "suppressed",
      error: `Held back by the storm guard: more than ${rule.maxPerHour} notifications of this rule this hour (a digest follows)`,
    }),
  );
}

/** One pending notification per action and subject, each with its delivery job, in the caller's transaction. */
export async function recordNotifications(
  tx: Tx,
  jobs: JobQueue,
  rule: RuleWithActions,
  subjects: NotificationSubject[],
  kind: "alert" | "digest",
  suppressedCount: number | null,
): Promise<string[]> {
  const ids = await insertNotifications(tx, notificationRows(rule, subjects, { kind, status: "pending", suppressedCount }));
  await jobs.enqueueEachWith(
    tx,
    "alert.deliver",
    ids.map((id) => ({ payload: { notificationId: id }, singletonKey: id })),
  );
  return ids;
}
