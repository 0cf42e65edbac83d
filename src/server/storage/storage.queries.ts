import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { projectDailyCounts, projects } from "../db/schema/index";

/** The organization's projects a storage figure is about (a project being deleted is gone for every reader). */
export function selectStorageProjects(db: Db, organizationId: string) {
  return db
    .select({ id: projects.id, name: projects.name, slug: projects.slug })
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), isNull(projects.deletionId)))
    .orderBy(asc(projects.name), asc(projects.id));
}

/**
 * Occurrences kept and the oldest day with any, per project, from the daily rollup ingest writes in
 * the occurrences' own transaction (so it sums to exactly the stored occurrences): a few rows a
 * project a day through its primary key (project_id first), never a count over occurrences.
 */
export function selectStoredCounts(db: Db, organizationId: string, projectIds: string[]) {
  if (projectIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      projectId: projectDailyCounts.projectId,
      occurrences: sql<number>`coalesce(sum(${projectDailyCounts.count}), 0)`.mapWith(Number),
      oldestDay: sql<string | null>`min(${projectDailyCounts.day})::text`,
    })
    .from(projectDailyCounts)
    .where(and(eq(projectDailyCounts.organizationId, organizationId), inArray(projectDailyCounts.projectId, projectIds), gt(projectDailyCounts.count, 0)))
    .groupBy(projectDailyCounts.projectId);
}

/** Rows sampled per project for the average stored size: the newest, through occurrences_org_project_received_idx. */
export const SIZE_SAMPLE_ROWS = 200;

/**
 * The average stored size in bytes of a project's newest SIZE_SAMPLE_ROWS occurrences
 * (`pg_column_size` of the whole row: its document as stored, compressed and TOASTed). An estimate
 * of the project's share of the table, indexes excluded: exact bytes would read every row.
 */
export async function selectAverageRowBytes(db: Db, organizationId: string, projectIds: string[]) {
  if (projectIds.length === 0) return [];
  const ids = sql.join(
    projectIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return executeRows<{ project_id: string; average: string | number | null }>(
    db,
    sql`select p.id as project_id, s.average
        from unnest(array[${ids}]) as p(id)
        cross join lateral (
          select avg(pg_column_size(o.*)) as average
          from (select * from occurrences
                where organization_id = ${organizationId} and project_id = p.id
                order by received_at desc limit ${SIZE_SAMPLE_ROWS}) o
        ) s`,
  );
}
