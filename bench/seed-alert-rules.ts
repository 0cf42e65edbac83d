import type { Db } from "../src/server/db/client";
import { alertActions, alertRules } from "../src/server/db/schema/index";

/**
 * `--alert-rules N` for bench:ingest: N active rules on the benchmark's project, cycling through
 * every trigger (new issue, regression, spike, event rate, level) with an email action each, so
 * the after-commit hand-off, the evaluator and the frequency checks all run while ingest is
 * measured. No SMTP is configured in a bench run: mails are logged, never sent.
 */
const TRIGGERS = [
  { type: "new_issue", includeRegressions: true },
  { type: "regression" },
  { type: "issue_frequency", count: 100, minutes: 1 },
  { type: "event_rate", count: 1000, minutes: 1 },
  { type: "level", level: "error" },
] as const;

export async function seedAlertRules(db: Db, organizationId: string, projectId: string, count: number) {
  for (let i = 0; i < count; i++) {
    const trigger = TRIGGERS[i % TRIGGERS.length];
    const [rule] = await db
      .insert(alertRules)
      .values({ organizationId, projectId, name: `bench rule ${i + 1}`, triggerType: trigger.type, trigger: JSON.stringify(trigger), filters: "{}" })
      .returning({ id: alertRules.id });
    await db.insert(alertActions).values({ organizationId, projectId, ruleId: rule.id, type: "email", recipients: JSON.stringify({ to: "members" }) });
  }
}
