import { and, asc, count, desc, eq, exists, gte, ilike, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import { ENVIRONMENTS } from "../../shared/constants";
import type { ListIssuesQuery } from "../../shared/triage.inputs";
import type { Db } from "../db/client";
import { containsPattern } from "../db/like";
import { offsetOf } from "../db/paging";
import { issueDailyCounts, issues, occurrences } from "../db/schema/index";

// Every statement filters on organization_id AND project_id; an issue id alone never reaches a row.

export const issueScope = (organizationId: string, projectId: string) =>
  and(eq(issues.organizationId, organizationId), eq(issues.projectId, projectId));

/** Severity and status sort by meaning (LOW < CRITICAL, OPEN first), not alphabetically. */
const severityRank = sql`case ${issues.severity} when 'LOW' then 0 when 'MEDIUM' then 1 when 'HIGH' then 2 when 'CRITICAL' then 3 else 4 end`;
const statusRank = sql`case ${issues.status} when 'OPEN' then 0 when 'RESOLVED' then 1 when 'IGNORED' then 2 else 3 end`;

const SORT_EXPRESSIONS = {
  lastSeen: issues.lastSeen,
  firstSeen: issues.firstSeen,
  eventCount: issues.eventCount,
  userCount: issues.userCount,
  severity: severityRank,
  status: statusRank,
  title: issues.title,
} as const;

const DEFAULT_SORT: ListIssuesQuery["sort"] = [{ field: "lastSeen", direction: "DESC" }];

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
};

function issueFilter(organizationId: string, projectId: string, query: ListIssuesQuery, db: Db): SQL {
  const conditions: (SQL | undefined)[] = [issueScope(organizationId, projectId)];
  if (query.status) conditions.push(inArray(issues.status, query.status));
  if (query.severity) conditions.push(inArray(issues.severity, query.severity));
  // Issues store SDK environment names; the rollups store their buckets, so they answer the filter.
  const buckets = query.environments ? [...new Set(query.environments)] : [];
  if (buckets.length > 0 && buckets.length < ENVIRONMENTS.length) {
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(issueDailyCounts)
          .where(
            and(
              eq(issueDailyCounts.organizationId, organizationId),
              eq(issueDailyCounts.projectId, projectId),
              eq(issueDailyCounts.issueId, issues.id),
              inArray(issueDailyCounts.environment, buckets),
            ),
          ),
      ),
    );
  }
  if (query.dateFrom) conditions.push(gte(issues.lastSeen, query.dateFrom));
  if (query.dateTo) conditions.push(lte(issues.lastSeen, query.dateTo));
  if (query.query) {
    const pattern = containsPattern(query.query);
    const latestMessage = db
      .select({ one: sql`1` })
      .from(occurrences)
      .where(
        and(
          eq(occurrences.organizationId, organizationId),
          eq(occurrences.projectId, projectId),
          eq(occurrences.id, issues.lastOccurrenceId),
          ilike(occurrences.message, pattern),
        ),
      );
    conditions.push(or(ilike(issues.title, pattern), ilike(issues.culprit, pattern), exists(latestMessage)));
  }
  return and(...conditions)!;
}

function issueOrder(requested: ListIssuesQuery["sort"]): SQL[] {
  const sort = requested.length > 0 ? requested : DEFAULT_SORT;
  const order = sort.map(({ field, direction }) => (direction === "ASC" ? asc(SORT_EXPRESSIONS[field]) : desc(SORT_EXPRESSIONS[field])));
  // A unique last key keeps pages stable when many issues share a value.
  const last = sort.at(-1)?.direction ?? "DESC";
  return [...order, last === "ASC" ? asc(issues.id) : desc(issues.id)];
}

export async function selectIssuePage(db: Db, organizationId: string, projectId: string, query: ListIssuesQuery) {
  const where = issueFilter(organizationId, projectId, query, db);
  const rows = await db
    .select(listColumns)
    .from(issues)
    .where(where)
    .orderBy(...issueOrder(query.sort))
    .limit(query.size)
    .offset(offsetOf(query.page, query.size));
  const [{ total }] = await db.select({ total: count() }).from(issues).where(where);
  return { rows, total };
}

export type IssueListRow = Awaited<ReturnType<typeof selectIssuePage>>["rows"][number];

export async function selectIssue(db: Db, organizationId: string, projectId: string, issueId: string) {
  const [row] = await db
    .select()
    .from(issues)
    .where(and(issueScope(organizationId, projectId), eq(issues.id, issueId)))
    .limit(1);
  return row ?? null;
}
