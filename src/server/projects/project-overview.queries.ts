import { and, between, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { indexOrder } from "../db/order";
import { issueDailyCounts, issues, projects } from "../db/schema/index";
import { listColumns } from "../issues/issue.queries";

/**
 * The newest open issues of each listed project in ONE statement: a lateral subquery per project
 * walks issues_org_project_last_seen_idx and stops after `limit` rows.
 */
export function selectTopOpenIssues(db: Db, organizationId: string, projectIds: string[], limit: number) {
  if (projectIds.length === 0) return Promise.resolve([]);
  const top = db
    .select(listColumns)
    .from(issues)
    .where(and(eq(issues.organizationId, organizationId), eq(issues.projectId, projects.id), eq(issues.status, "OPEN"), isNull(issues.deletionId)))
    .orderBy(indexOrder(issues.lastSeen, "DESC"), indexOrder(issues.id, "DESC"))
    .limit(limit)
    .as("top");
  return db
    .select()
    .from(projects)
    .innerJoinLateral(top, sql`true`)
    .where(and(eq(projects.organizationId, organizationId), inArray(projects.id, projectIds)))
    .orderBy(projects.id, indexOrder(top.lastSeen, "DESC"), indexOrder(top.id, "DESC"));
}

/**
 * The open issues with the most exceptions between two UTC days, `limit` per project, in ONE
 * statement: the daily rollups of the window (issue_daily_counts_project_day_idx), summed per
 * issue and ranked per project, joined to the open issues.
 */
export function selectFrequentOpenIssues(db: Db, organizationId: string, projectIds: string[], from: string, to: string, limit: number) {
  if (projectIds.length === 0) return Promise.resolve([]);
  const windowCounts = db
    .select({
      issueId: issueDailyCounts.issueId,
      windowCount: sql<number>`sum(${issueDailyCounts.count})`.mapWith(Number).as("window_count"),
    })
    .from(issueDailyCounts)
    .where(and(eq(issueDailyCounts.organizationId, organizationId), inArray(issueDailyCounts.projectId, projectIds), between(issueDailyCounts.day, from, to)))
    .groupBy(issueDailyCounts.issueId)
    .as("window_counts");
  const ranked = db
    .select({
      ...listColumns,
      windowCount: windowCounts.windowCount,
      rank: sql<number>`row_number() over (partition by ${issues.projectId} order by ${windowCounts.windowCount} desc, ${issues.lastSeen} desc, ${issues.id} desc)`.as(
        "rank",
      ),
    })
    .from(windowCounts)
    .innerJoin(issues, eq(issues.id, windowCounts.issueId))
    .where(and(eq(issues.organizationId, organizationId), eq(issues.status, "OPEN"), isNull(issues.deletionId)))
    .as("ranked");
  return db
    .select()
    .from(ranked)
    .where(sql`${ranked.rank} <= ${limit}`)
    .orderBy(ranked.projectId, desc(ranked.windowCount), desc(ranked.lastSeen), desc(ranked.id));
}
