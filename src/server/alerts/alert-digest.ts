import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { alertRules } from "../db/schema/index";
import type { JobQueue } from "../jobs/job-queue";
import type { JobPayload } from "../jobs/job-registry";
import { recordNotifications } from "./alert-fire";
import { selectRules, type RuleWithActions } from "./alert-rule.queries";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * The "alert.digest" job, DIGEST_DELAY_SECONDS after the storm guard first held one of a rule's
 * alerts (alert-fire.ts): ONE notification per action listing every alert held since the rule's
 * last digest. Under the rule's burst row lock — the lock fireRule takes first — it takes the held
 * alerts (clearing `held`, linking each to its action's digest) and clears the burst's due digest
 * in one transaction: an alert held by an evaluation that commits later is seen by the next
 * digest, which that evaluation schedules; a retried or duplicated job finds nothing left to send.
 */
export async function sendDigest(db: Db, jobs: JobQueue, payload: JobPayload<"alert.digest">) {
  const [owner] = await db
    .select({ organizationId: alertRules.organizationId, projectId: alertRules.projectId })
    .from(alertRules)
    .where(eq(alertRules.id, payload.ruleId));
  if (!owner) return;
  const [rule] = await selectRules(db, owner.organizationId, owner.projectId, payload.ruleId);
  if (!rule) return;
  const sent = await db.transaction((tx) => (payload.hour ? digestHour(tx, jobs, rule, payload.hour) : digestHeld(tx, jobs, rule)));
  if (sent.length > 0) jobs.wake();
}

async function digestHeld(tx: Tx, jobs: JobQueue, rule: RuleWithActions): Promise<string[]> {
  await tx.execute(sql`select 1 from alert_rule_bursts where rule_id = ${rule.id}::uuid for update`);
  const held = await executeRows<{ id: string; action_id: string | null; subject: string }>(
    tx,
    sql`update alert_notifications set held = false
        where rule_id = ${rule.id}::uuid and held
        returning id::text, action_id::text, coalesce(issue_id::text, '') || ' ' || reason as subject`,
  );
  await tx.execute(
    sql`update alert_rule_bursts set digest_due_at = null, last_digest_at = case when ${held.length > 0}::boolean then now() else last_digest_at end
        where rule_id = ${rule.id}::uuid`,
  );
  // Alerts held for an action deleted since are taken and listed nowhere.
  const actions = rule.actions.filter((action) => held.some((row) => row.action_id === action.id));
  if (actions.length === 0) return [];
  const subjects = new Set(held.map((row) => row.subject)).size;
  const digests = await recordNotifications(tx, jobs, { ...rule, actions }, [{ issueId: null, issueTitle: null, reason: "digest" }], "digest", subjects);
  await tx.execute(
    sql`update alert_notifications h set digest_id = d.id
        from alert_notifications d
        where d.id in (select value::uuid from json_array_elements_text(${JSON.stringify(digests)}::json))
          and h.id in (select value::uuid from json_array_elements_text(${JSON.stringify(held.map((row) => row.id))}::json))
          and h.action_id = d.action_id`,
  );
  return digests;
}

/**
 * A job queued before digests followed bursts: the count of an hour's held-back notifications
 * ("N more"), once — the hour's row is stamped in the same transaction.
 */
async function digestHour(tx: Tx, jobs: JobQueue, rule: RuleWithActions, hour: string): Promise<string[]> {
  const [row] = await executeRows<{ suppressed: number }>(
    tx,
    sql`update alert_rule_hours set digested_at = now()
        where rule_id = ${rule.id}::uuid and hour = ${hour}::timestamptz and digested_at is null and suppressed > 0
        returning suppressed`,
  );
  if (!row) return [];
  return recordNotifications(tx, jobs, rule, [{ issueId: null, issueTitle: null, reason: "digest" }], "digest", row.suppressed);
}
