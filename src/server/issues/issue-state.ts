import { sql, type SQL } from "drizzle-orm";
import { ISSUE_STATUSES, type IssueSeverity, type IssueStatus } from "../../shared/triage.inputs";

/**
 * The issue state machine, in one place: the statuses a user may move an issue between, what each
 * move sets beside the status, what a new event does to a resolved issue, and the severity a new
 * issue starts with. Triage (issue-triage.queries.ts) and the ingest upsert
 * (ingest/store/batch-commit.ts) follow this file; issue-state.int.test.ts runs the real upsert
 * from every state and compares it with `afterNewEvent`. Chat and alerts call it too.
 */

/** The status ingest creates an issue in (the column's default says the same). */
export const INITIAL_STATUS: IssueStatus = "OPEN";

/**
 * Where a user may move an issue from each status: anywhere else. Setting the status it already
 * has is not a transition: nothing changes and no activity is recorded.
 */
export const STATUS_TRANSITIONS: Readonly<Record<IssueStatus, readonly IssueStatus[]>> = {
  OPEN: ["RESOLVED", "IGNORED"],
  RESOLVED: ["OPEN", "IGNORED"],
  IGNORED: ["OPEN", "RESOLVED"],
};

export function canTransition(from: IssueStatus, to: IssueStatus): boolean {
  return STATUS_TRANSITIONS[from].includes(to);
}

/** The statuses an issue must be in for a move to `to` to apply (what triage locks and updates). */
export function statusesMovableTo(to: IssueStatus): IssueStatus[] {
  return ISSUE_STATUSES.filter((from) => canTransition(from, to));
}

/** The columns the state machine owns. */
export interface IssueStatusFields {
  status: IssueStatus;
  resolvedAt: Date | null;
  isRegression: boolean;
}

/**
 * What a user's move to `to` sets. Resolving stamps the time and clears the regression mark (the
 * issue is believed fixed again); only a RESOLVED issue has a resolution time, so reopening or
 * ignoring clears it and leaves the regression mark as it was.
 */
export function statusChange(to: IssueStatus, now: Date): Partial<IssueStatusFields> & { status: IssueStatus } {
  return to === "RESOLVED" ? { status: to, resolvedAt: now, isRegression: false } : { status: to, resolvedAt: null };
}

/**
 * The regression rule: a RESOLVED issue that sees a new event reopens as a regression (marked, its
 * resolution time cleared); IGNORED stays IGNORED and OPEN stays OPEN, counts growing.
 */
const REGRESSES_FROM: IssueStatus = "RESOLVED";
const REGRESSES_TO: IssueStatus = "OPEN";

export function afterNewEvent(state: IssueStatusFields): IssueStatusFields & { regressed: boolean } {
  if (state.status !== REGRESSES_FROM) return { ...state, regressed: false };
  return { status: REGRESSES_TO, resolvedAt: null, isRegression: true, regressed: true };
}

/** A status as an SQL literal; only the enumeration's own values ever get here. */
function statusLiteral(status: IssueStatus): string {
  if (!ISSUE_STATUSES.includes(status)) throw new Error(`Not an issue status: ${status}`);
  return `'${status}'`;
}

/**
 * `afterNewEvent` as the SET list of ingest's issue upsert, where `issues` is the existing row.
 * Literals rather than parameters: the batch statement's text never changes, so it is prepared once.
 */
export const afterNewEventSql: SQL = sql.raw(
  [
    `status = case when issues.status = ${statusLiteral(REGRESSES_FROM)} then ${statusLiteral(REGRESSES_TO)} else issues.status end`,
    `is_regression = issues.is_regression or issues.status = ${statusLiteral(REGRESSES_FROM)}`,
    `resolved_at = case when issues.status = ${statusLiteral(REGRESSES_FROM)} then null else issues.resolved_at end`,
  ].join(",\n          "),
);

/**
 * A regression is recorded in the issue's activity like a user's change, with no actor: Faultline
 * reopened it. These are the values of that row (kind, from, to) as SQL literals for the batch statement.
 */
export const REGRESSION_ACTIVITY_KIND = "regression";
export const regressionActivityValuesSql: SQL = sql.raw(`'${REGRESSION_ACTIVITY_KIND}', ${statusLiteral(REGRESSES_FROM)}, ${statusLiteral(REGRESSES_TO)}`);

/**
 * Beside `afterNewEventSql`: stamps the rows this statement reopens with its own token, so the
 * statement's RETURNING (which sees only the new row) can tell the regressions it made from one a
 * concurrent batch made a moment earlier (the row is then already OPEN and this statement changes
 * nothing). A parameter, not a literal: the statement's text stays the same for every batch.
 */
export function regressionMarkSql(batchToken: string): SQL {
  return sql`last_regression_batch = case when issues.status = ${sql.raw(statusLiteral(REGRESSES_FROM))} then ${batchToken}::uuid else issues.last_regression_batch end`;
}

/**
 * Beside `afterNewEventSql`: an issue this statement reopens is marked for alerts, as a created one
 * is. A fresh mark even over one still set: an evaluation of the earlier fact clears only its own.
 */
export const alertPendingMarkSql: SQL = sql.raw(
  `alert_pending_since = case when issues.status = ${statusLiteral(REGRESSES_FROM)} then now() else issues.alert_pending_since end`,
);

// A Map, not an object literal: a level such as "constructor" must not find Object.prototype's.
const SEVERITY_BY_LEVEL = new Map<string, IssueSeverity>([
  ["fatal", "CRITICAL"],
  ["error", "HIGH"],
  ["warning", "MEDIUM"],
]);

/** A new issue's severity from its first event's level (fatal→CRITICAL, error→HIGH, warning→MEDIUM, else LOW). */
export function severityForLevel(level: string): IssueSeverity {
  return SEVERITY_BY_LEVEL.get(level) ?? "LOW";
}
