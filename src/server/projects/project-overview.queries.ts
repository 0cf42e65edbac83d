import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { indexOrder } from "../db/order";
import { issues, projects } from "../db/schema/index";
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
    .where(and(eq(issues.organizationId, organizationId), eq(issues.projectId, projects.id), eq(issues.status, "OPEN")))
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
