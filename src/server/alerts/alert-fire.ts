import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import type { JobQueue } from "../jobs/job-queue";
import { BURST_INDIVIDUAL_ALERTS, BURST_QUIET_MINUTES, DIGEST_DELAY_SECONDS, DIGEST_SPACING_MINUTES, paceInWords } from "../../shared/alert.inputs";
import type { AlertReason } from "./alert-message";
import type { RuleWithActions } from "./alert-rule.queries";
import { insertNotifications, notificationRows, type NotificationSubject } from "./notification-rows";

/** What a rule fires about: an issue, or the project for rate rules (issueId null), and why. */
export interface FireSubject extends NotificationSubject {
  id: string;
}

/** How one rule's firing went, counted over its subjects. */
export interface FireOutcome {
  /** Notifications recorded with their delivery scheduled (one per action). */
  notificationIds: string[];
  /** Subjects held back for the rule's digest (logged as suppressed and held). */
  suppressed: number;
  /** Subjects that already fired within the interval (counted in the hour's row, not logged). */
  repeats: number;
  /** When the digest these subjects wait for is due, if this firing scheduled it. */
  digestDueAt: Date | null;
}

/** A digest this late was given up by the job queue (the attempts of a job take well under a minute). */
const DIGEST_OVERDUE_MINUTES = 2;

const keyOf = (subject: Pick<FireSubject, "id" | "reason">) => `${subject.id} ${subject.reason}`;

/**
 * The storm guard and the transactional outbox for one rule and the subjects one evaluation found,
 * in ONE transaction (a burst of new issues costs one commit per rule, not one per issue):
 * 1. the rule's burst row is locked first: two evaluations of one rule (two replicas, or two jobs),
 *    and its digest job, queue behind each other here, so they never deadlock on the rows below.
 *    A burst whose last alert is BURST_QUIET_MINUTES old is over: the next alert starts a new one;
 * 2. once per interval per rule and subject: a compare-and-set on alert_rule_issue_fires for all
 *    subjects in one statement — only the subjects whose row it could claim are fresh, so one issue
 *    never alerts twice in the interval;
 * 3. a fresh subject is sent on its own while its burst has sent fewer than BURST_INDIVIDUAL_ALERTS
 *    and the rule's UTC hour fewer than maxPerHour; otherwise it is held (logged as suppressed) for
 *    the rule's next digest, which the first held subject schedules DIGEST_DELAY_SECONDS ahead.
 *    Regressions are news about an issue someone closed: they are not part of a burst and have their
 *    own hourly budget, so no amount of new issues holds one back;
 * 4. one notification per action is recorded and its delivery job enqueued in the same transaction,
 *    so a crash leaves both or neither (a restart loses nothing, sends nothing twice).
 */
export async function fireRule(db: Db, jobs: JobQueue, rule: RuleWithActions, subjects: FireSubject[]): Promise<FireOutcome> {
  const unique = [...new Map(subjects.map((subject) => [keyOf(subject), subject])).values()];
  if (unique.length === 0) return { notificationIds: [], suppressed: 0, repeats: 0, digestDueAt: null };
  const result = await db.transaction(async (tx) => {
    const quiet = sql`alert_rule_bursts.last_at <= now() - ${`${BURST_QUIET_MINUTES} minutes`}::interval`;
    const [burst] = await executeRows<{ sent: number; digest_scheduled: boolean }>(
      tx,
      sql`insert into alert_rule_bursts (rule_id, started_at, last_at) values (${rule.id}::uuid, now(), now())
          on conflict (rule_id) do update set
            started_at = case when ${quiet} then now() else alert_rule_bursts.started_at end,
            sent = case when ${quiet} then 0 else alert_rule_bursts.sent end,
            last_digest_at = case when ${quiet} then null else alert_rule_bursts.last_digest_at end
          returning sent, coalesce(digest_due_at > now() - ${`${DIGEST_OVERDUE_MINUTES} minutes`}::interval, false) as digest_scheduled`,
    );
    const [hour] = await executeRows<{ hour: string; sent: number; regressions_sent: number }>(
      tx,
      sql`insert into alert_rule_hours (rule_id, hour) values (${rule.id}::uuid, date_trunc('hour', now()))
          on conflict (rule_id, hour) do update set sent = alert_rule_hours.sent
          returning hour::text, sent, regressions_sent`,
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
    let sentInBurst = 0;
    let regressionsSent = 0;
    let burstGrew = false;
    for (const subject of unique) {
      if (!fresh.has(keyOf(subject))) {
        repeats += 1;
      } else if (subject.reason === "regression") {
        if (hour.regressions_sent + regressionsSent < rule.maxPerHour) {
          regressionsSent += 1;
          toSend.push(subject);
        } else held.push(subject);
      } else {
        burstGrew = true;
        if (burst.sent + sentInBurst < BURST_INDIVIDUAL_ALERTS && hour.sent + sentInBurst < rule.maxPerHour) {
          sentInBurst += 1;
          toSend.push(subject);
        } else held.push(subject);
      }
    }
    if (toSend.length > 0 || held.length > 0 || repeats > 0)
      await tx.execute(
        sql`update alert_rule_hours set sent = sent + ${sentInBurst}, regressions_sent = regressions_sent + ${regressionsSent},
                                        suppressed = suppressed + ${held.length + repeats}
            where rule_id = ${rule.id}::uuid and hour = ${hour.hour}::timestamptz`,
      );
    // The first held subject while no digest is queued schedules one; later ones wait for it. A digest
    // long overdue was given up by the queue (its transaction failed every attempt): schedule it again.
    const schedule = held.length > 0 && !burst.digest_scheduled;
    let digestDueAt: Date | null = null;
    if (burstGrew || schedule) {
      const [row] = await executeRows<{ due_ms: number | null }>(
        tx,
        sql`update alert_rule_bursts set
              sent = sent + ${sentInBurst},
              last_at = case when ${burstGrew}::boolean then now() else last_at end,
              digest_due_at = case when ${schedule}::boolean
                then greatest(now() + ${`${DIGEST_DELAY_SECONDS} seconds`}::interval,
                              last_digest_at + ${`${DIGEST_SPACING_MINUTES} minutes`}::interval)
                else digest_due_at end
            where rule_id = ${rule.id}::uuid
            returning (extract(epoch from digest_due_at) * 1000)::float8 as due_ms`,
      );
      if (schedule && row.due_ms !== null) {
        digestDueAt = new Date(Number(row.due_ms));
        await jobs.enqueueWith(tx, "alert.digest", { ruleId: rule.id }, { singletonKey: `${rule.id}:digest`, startAfter: digestDueAt });
      }
    }
    await recordHeld(tx, rule, held);
    const notificationIds = await recordNotifications(tx, jobs, rule, toSend, "alert", null);
    return { notificationIds, suppressed: held.length, repeats, digestDueAt };
  });
  if (result.notificationIds.length > 0) jobs.wake();
  return result;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** One suppressed entry per action and held-back subject, in the log and waiting for the rule's digest. */
async function recordHeld(tx: Tx, rule: RuleWithActions, held: FireSubject[]) {
  await insertNotifications(tx, notificationRows(rule, held, { kind: "alert", status: "suppressed", held: true, error: heldBecause(rule) }));
}

/** Why an alert waits for the digest, in the log's words. */
const heldBecause = (rule: Pick<RuleWithActions, "maxPerHour">) =>
  `Held back by the storm guard (${paceInWords(rule.maxPerHour)}): listed in the rule's digest`;

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
