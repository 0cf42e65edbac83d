import { and, arrayOverlaps, count, eq, gte, ilike, inArray, isNull, lte, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { ISSUE_SEVERITIES, ISSUE_STATUSES, type ListIssuesInput } from "../../shared/triage.inputs";
import type { Db } from "../db/client";
import { containsPattern } from "../db/like";
import { indexOrder } from "../db/order";
import { offsetOf } from "../db/paging";
import { preparedPerDb } from "../db/prepared-per-db";
import { issues } from "../db/schema/index";

// Every statement filters on organization_id AND project_id; an issue id alone never reaches a row.
// An issue being deleted (deletion_id set) is gone for all of them; the condition is a filter on
// the rows the (organization, project, …) indexes give, so the list keeps its index.

export const issueScope = (organizationId: string, projectId: string) =>
  and(eq(issues.organizationId, organizationId), eq(issues.projectId, projectId), isNull(issues.deletionId));

/** `case column when 'A' then 0 when 'B' then 1 … else n end`: the enumeration's own order. */
const rankOf = (column: SQLWrapper, values: readonly string[]) =>
  sql`case ${column} ${sql.raw(values.map((value, rank) => `when '${value}' then ${rank}`).join(" "))} else ${sql.raw(String(values.length))} end`;

/** Severity and status sort by meaning (LOW < CRITICAL, OPEN first), not alphabetically. */
const severityRank = rankOf(issues.severity, ISSUE_SEVERITIES);
const statusRank = rankOf(issues.status, ISSUE_STATUSES);

const SORT_EXPRESSIONS = {
  lastSeen: issues.lastSeen,
  firstSeen: issues.firstSeen,
  eventCount: issues.eventCount,
  userCount: issues.userCount,
  severity: severityRank,
  status: statusRank,
  title: issues.title,
} as const;

const DEFAULT_SORT: ListIssuesInput["sort"] = [{ field: "lastSeen", direction: "DESC" }];

export const listColumns = {
  id: issues.id,
  projectId: issues.projectId,
  title: issues.title,
  culprit: issues.culprit,
  level: issues.level,
  platform: issues.platform,
  status: issues.status,
  severity: issues.severity,
  isRegression: issues.isRegression,
  firstSeen: issues.firstSeen,
  lastSeen: issues.lastSeen,
  eventCount: issues.eventCount,
  userCount: issues.userCount,
  environments: issues.environments,
  // Not in the list's view; the CSV export's release columns (walkIssues).
  firstRelease: issues.firstRelease,
  lastRelease: issues.lastRelease,
};

export interface IssueFilter extends Omit<ListIssuesInput, "environments"> {
  /** SDK environment names whose bucket was asked for (see issue-environments.ts); [] matches nothing. */
  environmentNames?: string[];
  /** Also match issues whose events named no environment (they count in the PRODUCTION bucket). */
  includeUnnamed?: boolean;
}

function issueFilter(organizationId: string, projectId: string, query: IssueFilter): SQL {
  const conditions: (SQL | undefined)[] = [issueScope(organizationId, projectId)];
  if (query.status) conditions.push(inArray(issues.status, query.status));
  if (query.severity) conditions.push(inArray(issues.severity, query.severity));
  if (query.environmentNames) {
    const named = query.environmentNames.length > 0 ? arrayOverlaps(issues.environments, query.environmentNames) : sql`false`;
    conditions.push(query.includeUnnamed ? or(named, sql`cardinality(${issues.environments}) = 0`) : named);
  }
  if (query.dateFrom) conditions.push(gte(issues.lastSeen, query.dateFrom));
  if (query.dateTo) conditions.push(lte(issues.lastSeen, query.dateTo));
  if (query.query) {
    // Ingest keeps the newest message on the issue: joining each issue's latest occurrence for
    // it cost 150 ms–1 s at 20,000 issues.
    const pattern = containsPattern(query.query);
    conditions.push(or(ilike(issues.title, pattern), ilike(issues.culprit, pattern), ilike(issues.lastMessage, pattern)));
  }
  return and(...conditions)!;
}

function issueOrder(requested: ListIssuesInput["sort"]): SQL[] {
  const sort = requested.length > 0 ? requested : DEFAULT_SORT;
  const order = sort.map(({ field, direction }) => indexOrder(SORT_EXPRESSIONS[field], direction));
  // A unique last key keeps pages stable when many issues share a value.
  return [...order, indexOrder(issues.id, sort.at(-1)!.direction)];
}

/** One page and the total over the same filter, side by side (two connections on PostgreSQL). */
export async function selectIssuePage(db: Db, organizationId: string, projectId: string, query: IssueFilter) {
  const where = issueFilter(organizationId, projectId, query);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(listColumns)
      .from(issues)
      .where(where)
      .orderBy(...issueOrder(query.sort))
      .limit(query.size)
      .offset(offsetOf(query.page, query.size)),
    db.select({ total: count() }).from(issues).where(where),
  ]);
  return { rows, total };
}

/** Every distinct `environments` array of the project's issues (a handful), to map names to buckets. */
export function selectEnvironmentSets(db: Db, organizationId: string, projectId: string) {
  return db.selectDistinct({ environments: issues.environments }).from(issues).where(issueScope(organizationId, projectId));
}

export type IssueListRow = Awaited<ReturnType<typeof selectIssuePage>>["rows"][number];

/**
 * The first `size` matching issues and whether more match, without counting them all: a count
 * reads every issue the filter leaves (with a text filter, all of the project's), while the page
 * stops at `size + 1` matches in sort order. For callers that need no total (the agent's search,
 * and the CSV export, which walks the matches `size` at a time from `offset`).
 */
export async function selectIssueFirstPage(db: Db, organizationId: string, projectId: string, query: IssueFilter, offset = 0) {
  const rows = await db
    .select(listColumns)
    .from(issues)
    .where(issueFilter(organizationId, projectId, query))
    .orderBy(...issueOrder(query.sort))
    .limit(query.size + 1)
    .offset(offset);
  return { rows: rows.slice(0, query.size), more: rows.length > query.size };
}

/** The project of one of the organization's issues; another organization's issue is not found. */
export async function selectIssueProjectId(db: Db, organizationId: string, issueId: string) {
  const [row] = await db
    .select({ projectId: issues.projectId })
    .from(issues)
    .where(and(eq(issues.organizationId, organizationId), eq(issues.id, issueId), isNull(issues.deletionId)))
    .limit(1);
  return row?.projectId ?? null;
}

const issueById = preparedPerDb((db) =>
  db
    .select()
    .from(issues)
    .where(
      and(
        eq(issues.organizationId, sql.placeholder("organizationId")),
        eq(issues.projectId, sql.placeholder("projectId")),
        eq(issues.id, sql.placeholder("issueId")),
        isNull(issues.deletionId),
      ),
    )
    .limit(1)
    .prepare("issue_by_id"),
);

export async function selectIssue(db: Db, organizationId: string, projectId: string, issueId: string) {
  const [row] = await issueById(db).execute({ organizationId, projectId, issueId });
  return row ?? null;
}
