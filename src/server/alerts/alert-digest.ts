import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { alertRules } from "../db/schema/index";
import type { JobQueue } from "../jobs/job-queue";
import type { JobPayload } from "../jobs/job-registry";
import { recordNotifications } from "./alert-fire";
import { selectRules } from "./alert-rule.queries";

/**
 * The "alert.digest" job, an hour after the storm guard first held a rule back: ONE notification
 * per action saying how many more there were ("and 1,234 more in the last hour"). The hour's row
 * is stamped in the same transaction, so a retried job sends no second digest.
 */
export async function sendDigest(db: Db, jobs: JobQueue, payload: JobPayload<"alert.digest">) {
  const [owner] = await db
    .select({ organizationId: alertRules.organizationId, projectId: alertRules.projectId })
    .from(alertRules)
    .where(eq(alertRules.id, payload.ruleId));
  if (!owner) return;
  const [rule] = await selectRules(db, owner.organizationId, owner.projectId, payload.ruleId);
  if (!rule) return;
  const sent = await db.transaction(async (tx) => {
    const [hour] = await executeRows<{ suppressed: number }>(
      tx,
      sql`update alert_rule_hours set digested_at = now()
          where rule_id = ${payload.ruleId}::uuid and hour = ${payload.hour}::timestamptz and digested_at is null and suppressed > 0
          returning suppressed`,
    );
    if (!hour) return [];
    return recordNotifications(tx, jobs, rule, [{ issueId: null, issueTitle: null, reason: "digest" }], "digest", hour.suppressed);
  });
  if (sent.length > 0) jobs.wake();
}
