import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import type { alertNotifications } from "../db/schema/index";
import type { AlertReason } from "./alert-message";
import type { RuleWithActions } from "./alert-rule.queries";

export type NotificationInsert = typeof alertNotifications.$inferInsert;

/** Who a log entry is about: an issue, or the project (issueId null) for rate rules, digests and tests. */
export interface NotificationSubject {
  issueId: string | null;
  issueTitle: string | null;
  reason: AlertReason;
}

/** The log's entries for one attempt: a row per action of the rule for each subject. */
export function notificationRows(
  rule: RuleWithActions,
  subjects: NotificationSubject[],
  entry: Pick<NotificationInsert, "kind" | "status" | "error" | "suppressedCount" | "held">,
): NotificationInsert[] {
  return subjects.flatMap((subject) =>
    rule.actions.map((action) => ({
      organizationId: rule.organizationId,
      projectId: rule.projectId,
      ruleId: rule.id,
      ruleName: rule.name,
      actionId: action.id,
      issueId: subject.issueId,
      issueTitle: subject.issueTitle,
      channel: action.type,
      reason: subject.reason,
      ...entry,
    })),
  );
}

/**
 * Writes log entries in ONE statement whatever their number, answering their ids. A burst of new
 * issues logs hundreds of entries (most held back by the storm guard) while ingest runs on the same
 * cores: one JSON parameter expanded by json_to_recordset costs a JSON.stringify, where a
 * multi-row insert built by the query builder cost a placeholder per column and row (and new SQL
 * text for every row count).
 */
export async function insertNotifications(db: Pick<Db, "execute">, rows: NotificationInsert[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const json = JSON.stringify(
    rows.map((row) => ({
      organization_id: row.organizationId,
      project_id: row.projectId,
      rule_id: row.ruleId ?? null,
      rule_name: row.ruleName,
      action_id: row.actionId ?? null,
      issue_id: row.issueId ?? null,
      issue_title: row.issueTitle ?? null,
      channel: row.channel,
      kind: row.kind,
      reason: row.reason,
      status: row.status,
      error: row.error ?? null,
      suppressed_count: row.suppressedCount ?? null,
      held: row.held ?? false,
    })),
  );
  const inserted = await executeRows<{ id: string }>(
    db,
    sql`insert into alert_notifications (organization_id, project_id, rule_id, rule_name, action_id, issue_id, issue_title, channel, kind,
                                         reason, status, error, suppressed_count, held)
        select organization_id, project_id, rule_id, rule_name, action_id, issue_id, issue_title, channel, kind, reason, status, error, suppressed_count,
               held
        from json_to_recordset(${json}::json) as r(organization_id text, project_id uuid, rule_id uuid, rule_name text, action_id uuid,
                                                   issue_id uuid, issue_title text, channel text, kind text, reason text, status text,
                                                   error text, suppressed_count integer, held boolean)
        returning id`,
  );
  return inserted.map((row) => row.id);
}
