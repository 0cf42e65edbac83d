import { and, between, eq, inArray, sql } from "drizzle-orm";
import type { EnvironmentBucket } from "../../shared/constants";
import type { Db } from "../db/client";
import { issueDailyCounts } from "../db/schema/index";

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

/** The same rollups for several projects of one organization at once (the dashboard overview). */
export function selectDailyCountsByProject(db: Db, organizationId: string, projectIds: string[], from: string, to: string) {
  if (projectIds.length === 0) return Promise.resolve([]);
  return db
    .select({ projectId: issueDailyCounts.projectId, day: issueDailyCounts.day, count: sql<number>`sum(${issueDailyCounts.count})`.mapWith(Number) })
    .from(issueDailyCounts)
    .where(and(eq(issueDailyCounts.organizationId, organizationId), inArray(issueDailyCounts.projectId, projectIds), between(issueDailyCounts.day, from, to)))
    .groupBy(issueDailyCounts.projectId, issueDailyCounts.day);
}
