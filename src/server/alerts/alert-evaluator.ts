import { and, eq, gte, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { AlertFilters, AlertTrigger } from "../../shared/alert.inputs";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { alertRules, issueMinuteCounts, projects } from "../db/schema/index";
import type { JobQueue } from "../jobs/job-queue";
import type { IssueFactsPayload, ProjectRef } from "../jobs/job-registry";
import type { Logger } from "../logger";
import { fireRule, type FireSubject } from "./alert-fire";
import { passesFilters, reasonForFact } from "./alert-filters";
import { selectRules, type RuleWithActions } from "./alert-rule.queries";
import { minutesSinceLastDeploy } from "./alert-deploys";
import { loadAlertIssues } from "./alert-subject";

export interface EvaluatorDeps {
  db: Db;
  jobs: JobQueue;
  logger: Logger;
}

const ISSUE_TRIGGERS = ["new_issue", "regression", "level", "new_issue_after_deploy"];
const FREQUENCY_TRIGGERS = ["issue_frequency", "event_rate"];
/** The muted status: an ignored issue never alerts. */
const MUTED = "IGNORED";

/**
 * A project's rules that may fire now: enabled, not snoozed, of the given trigger types, and none
 * while the project is being deleted (marked): from the request on it is gone for everyone, its
 * alerts included, though its rules and counts stay until the deletion job reaches them.
 */
async function activeRules(db: Db, organizationId: string, projectId: string, types: string[]): Promise<RuleWithActions[]> {
  const ids = await db
    .select({ id: alertRules.id })
    .from(alertRules)
    .where(
      and(
        eq(alertRules.organizationId, organizationId),
        eq(alertRules.projectId, projectId),
        eq(alertRules.enabled, true),
        inArray(alertRules.triggerType, types),
        or(isNull(alertRules.snoozedUntil), lt(alertRules.snoozedUntil, sql`now()`)),
        sql`exists (select 1 from ${projects} where ${projects.id} = ${alertRules.projectId} and ${projects.deletionId} is null)`,
      ),
    );
  if (ids.length === 0) return [];
  const wanted = new Set(ids.map((row) => row.id));
  return (await selectRules(db, organizationId, projectId)).filter((rule) => wanted.has(rule.id));
}

/**
 * The "alert.evaluate" job: issues a committed batch created or regressed, against the project's
 * issue rules. The issues are read at once, and each rule fires for all the issues it matched in
 * one storm-guard transaction (alert-fire.ts): a burst of new issues costs a few statements per
 * rule, not a transaction per issue and rule, while ingest shares the database with it.
 */
export async function evaluateIssueFacts(deps: EvaluatorDeps, payload: IssueFactsPayload) {
  // The sweep may hand an issue on while its first hand-off still waits: each fact is evaluated once.
  const facts = [...new Map(payload.facts.map((fact) => [`${fact.issueId} ${fact.kind}`, fact])).values()];
  const rules = await activeRules(deps.db, payload.organizationId, payload.projectId, ISSUE_TRIGGERS);
  if (rules.length > 0) await fireMatchingRules(deps, payload, facts, rules);
  // Evaluated (with or without rules): these marks must not be handed on again. Only the marks these
  // facts are about: an issue reopened meanwhile carries a newer one, still to be evaluated.
  const marks = facts.flatMap((fact) => (fact.markedAt ? [{ issue_id: fact.issueId, marked_at: fact.markedAt }] : []));
  if (marks.length === 0) return;
  await deps.db.execute(
    sql`update issues i set alert_pending_since = null
        from json_to_recordset(${JSON.stringify(marks)}::json) as m(issue_id uuid, marked_at timestamptz)
        where i.project_id = ${payload.projectId}::uuid and i.id = m.issue_id and i.alert_pending_since = m.marked_at`,
  );
}

async function fireMatchingRules(deps: EvaluatorDeps, payload: IssueFactsPayload, facts: IssueFactsPayload["facts"], rules: RuleWithActions[]) {
  const loaded = await loadAlertIssues(
    deps.db,
    payload.organizationId,
    payload.projectId,
    facts.map((fact) => fact.issueId),
  );
  // Read only when a deploy rule is active: most projects have none.
  const sinceDeploy = rules.some((rule) => rule.triggerType === "new_issue_after_deploy")
    ? await minutesSinceLastDeploy(deps.db, payload.organizationId, payload.projectId, [...loaded.keys()])
    : undefined;
  for (const rule of rules) {
    const trigger = JSON.parse(rule.trigger) as AlertTrigger;
    const filters = JSON.parse(rule.filters) as AlertFilters;
    const subjects: FireSubject[] = [];
    for (const fact of facts) {
      const issue = loaded.get(fact.issueId);
      if (!issue || issue.status === MUTED) continue;
      const reason = reasonForFact(trigger, fact.kind, {
        level: issue.level,
        minutesSinceDeploy: sinceDeploy ? (sinceDeploy.get(issue.id) ?? null) : undefined,
      });
      if (reason && passesFilters(filters, issue)) subjects.push({ id: issue.id, issueId: issue.id, issueTitle: issue.title, reason });
    }
    await fireRule(deps.db, deps.jobs, rule, subjects);
  }
}

/** Per-minute rollup rows older than this are deleted (rules look back at most 60 minutes). */
const MINUTE_ROLLUP_RETENTION = "2 hours";

/**
 * The "alert.frequency" job: spike and event-rate rules of one project, read from the per-minute
 * rollup (a few rows per issue), never from occurrences. The window is the current minute and the
 * `minutes - 1` before it.
 */
export async function evaluateFrequency(deps: EvaluatorDeps, payload: ProjectRef) {
  await deps.db
    .delete(issueMinuteCounts)
    .where(and(eq(issueMinuteCounts.projectId, payload.projectId), lt(issueMinuteCounts.minute, sql`now() - ${MINUTE_ROLLUP_RETENTION}::interval`)));
  const rules = await activeRules(deps.db, payload.organizationId, payload.projectId, FREQUENCY_TRIGGERS);
  for (const rule of rules) {
    const trigger = JSON.parse(rule.trigger) as AlertTrigger;
    const filters = JSON.parse(rule.filters) as AlertFilters;
    const since = sql`date_trunc('minute', now()) - ${`${(trigger.minutes ?? 1) - 1} minutes`}::interval`;
    const scope = and(
      eq(issueMinuteCounts.organizationId, payload.organizationId),
      eq(issueMinuteCounts.projectId, payload.projectId),
      gte(issueMinuteCounts.minute, since),
    );
    if (trigger.type === "event_rate") {
      const [row] = await executeRows<{ total: number }>(deps.db, sql`select coalesce(sum(count), 0)::bigint as total from issue_minute_counts where ${scope}`);
      if (Number(row.total) > (trigger.count ?? 0))
        await fireRule(deps.db, deps.jobs, rule, [{ id: payload.projectId, issueId: null, issueTitle: null, reason: "event_rate" }]);
      continue;
    }
    const spiking = await executeRows<{ issue_id: string }>(
      deps.db,
      sql`select issue_id from issue_minute_counts where ${scope} group by issue_id having sum(count) > ${trigger.count ?? 0} limit 100`,
    );
    if (spiking.length === 0) continue;
    const spikingIssues = await loadAlertIssues(
      deps.db,
      payload.organizationId,
      payload.projectId,
      spiking.map((row) => row.issue_id),
    );
    const subjects: FireSubject[] = [...spikingIssues.values()]
      .filter((issue) => issue.status !== MUTED && passesFilters(filters, issue))
      .map((issue) => ({ id: issue.id, issueId: issue.id, issueTitle: issue.title, reason: "issue_frequency" }));
    await fireRule(deps.db, deps.jobs, rule, subjects);
  }
}
