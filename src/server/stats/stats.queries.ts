import { and, between, eq, inArray, sql } from "drizzle-orm";
import type { EnvironmentBucket } from "../../shared/environments";
import type { Db } from "../db/client";
import { issueDailyCounts, projectDailyCounts } from "../db/schema/index";

export interface DailyCountsQuery {
  from: string;
  to: string;
  issueId?: string;
  environments?: EnvironmentBucket[];
}

/**
 * Occurrences per UTC day from the rollups ingest keeps (never a scan of occurrences); days
 * without any row are absent and zero-filled by the caller.
 */
export function selectDailyCounts(db: Db, organizationId: string, projectId: string, query: DailyCountsQuery) {
  if (!query.issueId) return selectProjectDailyCounts(db, organizationId, [projectId], query.from, query.to, query.environments);
  return db
    .select({ day: issueDailyCounts.day, count: sql<number>`sum(${issueDailyCounts.count})`.mapWith(Number) })
    .from(issueDailyCounts)
    .where(
      and(
        eq(issueDailyCounts.organizationId, organizationId),
        eq(issueDailyCounts.projectId, projectId),
        between(issueDailyCounts.day, query.from, query.to),
        query.issueId ? eq(issueDailyCounts.issueId, query.issueId) : undefined,
        query.environments?.length ? inArray(issueDailyCounts.environment, query.environments) : undefined,
      ),
    )
    .groupBy(issueDailyCounts.day);
}

/** Project-wide counts come from the per-project rollup: a handful of rows per day. */
function selectProjectDailyCounts(db: Db, organizationId: string, projectIds: string[], from: string, to: string, environments?: EnvironmentBucket[]) {
  return db
    .select({ projectId: projectDailyCounts.projectId, day: projectDailyCounts.day, count: sql<number>`sum(${projectDailyCounts.count})`.mapWith(Number) })
    .from(projectDailyCounts)
    .where(
      and(
        eq(projectDailyCounts.organizationId, organizationId),
        inArray(projectDailyCounts.projectId, projectIds),
        between(projectDailyCounts.day, from, to),
        environments?.length ? inArray(projectDailyCounts.environment, environments) : undefined,
      ),
    )
    .groupBy(projectDailyCounts.projectId, projectDailyCounts.day);
}

/** The same rollups for several projects of one organization at once (the dashboard overview). */
export function selectDailyCountsByProject(db: Db, organizationId: string, projectIds: string[], from: string, to: string) {
  if (projectIds.length === 0) return Promise.resolve([]);
  return selectProjectDailyCounts(db, organizationId, projectIds, from, to);
}

/** Occurrences of each of several issues of one project over from..to (UTC days, inclusive); an issue without any is absent. */
export async function selectIssueTotals(db: Db, organizationId: string, projectId: string, issueIds: string[], from: string, to: string) {
  if (issueIds.length === 0) return new Map<string, number>();
  const rows = await db
    .select({ issueId: issueDailyCounts.issueId, count: sql<number>`sum(${issueDailyCounts.count})`.mapWith(Number) })
    .from(issueDailyCounts)
    .where(
      and(
        eq(issueDailyCounts.organizationId, organizationId),
        eq(issueDailyCounts.projectId, projectId),
        inArray(issueDailyCounts.issueId, issueIds),
        between(issueDailyCounts.day, from, to),
      ),
    )
    .groupBy(issueDailyCounts.issueId);
  return new Map(rows.map((row) => [row.issueId, row.count]));
}
