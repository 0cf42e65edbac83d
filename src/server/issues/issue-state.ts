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
 * "Resolved in a release" (issues.resolved_in_release, see its comment in db/schema/issues.ts): the
 * release whose events still see the issue resolved, and whether it is the project's latest release
 * when resolved ("next": it and older releases keep it resolved) or the first fixed one (only older
 * releases keep it resolved).
 */
export interface ReleaseResolution {
  resolvedInRelease: string | null;
  resolvedInNextRelease: boolean;
}

export const NO_RELEASE_RESOLUTION: ReleaseResolution = { resolvedInRelease: null, resolvedInNextRelease: false };

/**
 * What a user's move to `to` sets. Resolving stamps the time and clears the regression mark (the
 * issue is believed fixed again); only a RESOLVED issue has a resolution time, so reopening or
 * ignoring clears it and leaves the regression mark as it was. Every change replaces the release
 * resolution: only resolving in a release sets one, any other change clears it.
 */
export function statusChange(
  to: IssueStatus,
  now: Date,
  release: ReleaseResolution = NO_RELEASE_RESOLUTION,
): Partial<IssueStatusFields> & ReleaseResolution & { status: IssueStatus } {
  if (to !== "RESOLVED") return { status: to, resolvedAt: null, ...NO_RELEASE_RESOLUTION };
  return { status: to, resolvedAt: now, isRegression: false, ...release };
}

/**
 * Where an event's release stands against a release resolution, releases ranked by creation
 * (`null`: the event has no release, or one the organization does not know). An issue resolved
 * in the next release stays resolved for events of that release or an older one; resolved in a named
 * release, for events of older releases only. An event without a known release cannot be shown to
 * predate the fix, so it reopens the issue (as Sentry treats an unknown release: newer).
 */
export function releaseKeepsResolved(resolution: ReleaseResolution, eventRank: number | null, resolutionRank: number | null): boolean {
  if (resolution.resolvedInRelease === null || eventRank === null || resolutionRank === null) return false;
  return resolution.resolvedInNextRelease ? eventRank <= resolutionRank : eventRank < resolutionRank;
}

/**
 * The regression rule: a RESOLVED issue that sees a new event reopens as a regression (marked, its
 * resolution time and release resolution cleared) unless the event's release keeps it resolved
 * (`releaseKeepsResolved`); IGNORED stays IGNORED and OPEN stays OPEN, counts growing.
 */
const REGRESSES_FROM: IssueStatus = "RESOLVED";
const REGRESSES_TO: IssueStatus = "OPEN";

export function afterNewEvent(state: IssueStatusFields, keptResolvedByRelease = false): IssueStatusFields & { regressed: boolean } {
  if (state.status !== REGRESSES_FROM || keptResolvedByRelease) return { ...state, regressed: false };
  return { status: REGRESSES_TO, resolvedAt: null, isRegression: true, regressed: true };
}

/** A status as an SQL literal; only the enumeration's own values ever get here. */
function statusLiteral(status: IssueStatus): string {
  if (!ISSUE_STATUSES.includes(status)) throw new Error(`Not an issue status: ${status}`);
  return `'${status}'`;
}

/** The ingest batch statement's CTE of the events it stored (issue_id, release, timestamp): ingest/store/batch-commit.ts. */
const BATCH_EVENTS = "occ";

/**
 * `releaseKeepsResolved` in SQL for the issue row `issue` and an event release `release`: both
 * releases looked up by the organization's unique (organization_id, version) index and ranked by
 * (created_at, id), the order release lists use. A missing release of either side keeps nothing.
 */
function releaseKeepsResolvedSql(issue: string, release: string): string {
  return `exists (select 1 from releases er join releases tr on tr.organization_id = er.organization_id and tr.version = ${issue}.resolved_in_release
            where er.organization_id = ${issue}.organization_id and er.version = ${release}
              and case when ${issue}.resolved_in_next_release then (er.created_at, er.id) <= (tr.created_at, tr.id)
                       else (er.created_at, er.id) < (tr.created_at, tr.id) end)`;
}

/**
 * Whether the batch's events reopen the existing row `issues`: a CASE, so the steady state (an issue
 * not RESOLVED, or resolved without a release) decides on its own columns, and only an issue resolved
 * in a release looks its batch events' releases up.
 */
const REOPENS = `(case when issues.status <> ${statusLiteral(REGRESSES_FROM)} then false
            when issues.resolved_in_release is null then true
            else exists (select 1 from ${BATCH_EVENTS} e where e.issue_id = issues.id and not ${releaseKeepsResolvedSql("issues", "e.release")}) end)`;

/**
 * `afterNewEvent` as the SET list of ingest's issue upsert, where `issues` is the existing row.
 * Literals rather than parameters: the batch statement's text never changes, so it is prepared once.
 */
export const afterNewEventSql: SQL = sql.raw(
  [
    `status = case when ${REOPENS} then ${statusLiteral(REGRESSES_TO)} else issues.status end`,
    `is_regression = case when ${REOPENS} then true else issues.is_regression end`,
    `resolved_at = case when ${REOPENS} then null else issues.resolved_at end`,
    `resolved_in_release = case when ${REOPENS} then null else issues.resolved_in_release end`,
    `resolved_in_next_release = case when ${REOPENS} then false else issues.resolved_in_next_release end`,
  ].join(",\n          "),
);

/**
 * A regression is recorded in the issue's activity like a user's change, with no actor: Faultline
 * reopened it. An issue resolved in a release records `regression_in_release`, from that release to
 * the release of the first batch event that reopened it (null: an event without a known release).
 */
export const REGRESSION_ACTIVITY_KIND = "regression";
export const RELEASE_REGRESSION_ACTIVITY_KIND = "regression_in_release";

/**
 * The SELECT of the activity rows for `regressed`, a relation of the rows the upsert reopened
 * (organization_id, project_id, id). It reads `issues` as the statement's snapshot sees it — before
 * the upsert, so with the release resolution the upsert clears; only reopened issues are looked up.
 */
export function regressionActivitiesSql(regressed: string): SQL {
  return sql.raw(`select u.organization_id, u.project_id, u.id,
               case when old.resolved_in_release is null then '${REGRESSION_ACTIVITY_KIND}' else '${RELEASE_REGRESSION_ACTIVITY_KIND}' end,
               case when old.resolved_in_release is null then ${statusLiteral(REGRESSES_FROM)} else old.resolved_in_release end,
               case when old.resolved_in_release is null then ${statusLiteral(REGRESSES_TO)}
                    else (select e.release from ${BATCH_EVENTS} e where e.issue_id = u.id and not ${releaseKeepsResolvedSql("old", "e.release")}
                          order by e.timestamp limit 1) end
        from ${regressed} u left join issues old on old.id = u.id`);
}

/**
 * Beside `afterNewEventSql`: stamps the rows this statement reopens with its own token, so the
 * statement's RETURNING (which sees only the new row) can tell the regressions it made from one a
 * concurrent batch made a moment earlier (the row is then already OPEN and this statement changes
 * nothing). A parameter, not a literal: the statement's text stays the same for every batch.
 */
export function regressionMarkSql(batchToken: string): SQL {
  return sql`last_regression_batch = case when ${sql.raw(REOPENS)} then ${batchToken}::uuid else issues.last_regression_batch end`;
}

/**
 * Beside `afterNewEventSql`: an issue this statement reopens is marked for alerts, as a created one
 * is. A fresh mark even over one still set: an evaluation of the earlier fact clears only its own.
 */
export const alertPendingMarkSql: SQL = sql.raw(`alert_pending_since = case when ${REOPENS} then now() else issues.alert_pending_since end`);

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
