import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { indexOrder, partitionKeyOrder } from "../db/order";
import type { Db } from "../db/client";
import { occurrences, projectDailyCounts, projects } from "../db/schema/index";

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

/** The tuple header and the fixed-width columns (three uuids, two timestamps), which pg_column_size of the others leaves out. */
const FIXED_ROW_BYTES = 24 + 3 * 16 + 2 * 8;

/**
 * One row's stored size: each variable-width column as stored (`pg_column_size` of a column reads
 * its compressed or TOASTed size without fetching it; of the whole row it would detoast every value
 * first), plus the fixed part.
 */
const storedRowBytes = sql<number>`${FIXED_ROW_BYTES} + ${sql.join(
  [
    occurrences.organizationId,
    occurrences.eventId,
    occurrences.level,
    occurrences.platform,
    occurrences.environment,
    occurrences.environmentBucket,
    occurrences.release,
    occurrences.name,
    occurrences.message,
    occurrences.userKey,
    occurrences.fingerprint,
    occurrences.data,
  ].map((column) => sql`coalesce(pg_column_size(${column}), 0)`),
  sql` + `,
)}`.mapWith(Number);

/**
 * The average stored size in bytes of the project's newest SIZE_SAMPLE_ROWS occurrences: an
 * estimate of a row of the project, indexes excluded (exact bytes would read every row). One
 * index range read of at most SIZE_SAMPLE_ROWS rows, as the exception list's first page.
 */
export async function selectAverageRowBytes(db: Db, organizationId: string, projectId: string): Promise<number> {
  const rows = await db
    .select({ bytes: storedRowBytes })
    .from(occurrences)
    .where(and(eq(occurrences.organizationId, organizationId), eq(occurrences.projectId, projectId)))
    .orderBy(partitionKeyOrder(occurrences.receivedOn, "DESC"), indexOrder(occurrences.receivedAt, "DESC"))
    .limit(SIZE_SAMPLE_ROWS);
  return rows.length ? rows.reduce((sum, row) => sum + row.bytes, 0) / rows.length : 0;
}
