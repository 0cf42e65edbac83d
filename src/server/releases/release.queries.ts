import { and, asc, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { issues, projects, releaseCommits, releaseProjects, releases } from "../db/schema/index";

// Every query takes the organization id.

export type ReleaseRow = typeof releases.$inferSelect;

/**
 * Creates the release or, when the version exists, keeps it and fills what this call adds (an
 * upsert: sentry-cli posts `releases new` again for `set-commits`, and a re-run build must not fail).
 */
export async function upsertRelease(
  db: Db,
  organizationId: string,
  version: string,
  fields: { url?: string | null; dateStarted?: Date | null; dateReleased?: Date | null },
): Promise<{ row: ReleaseRow; created: boolean }> {
  const [row] = await db
    .insert(releases)
    .values({ organizationId, version, url: fields.url ?? null, dateStarted: fields.dateStarted ?? null, dateReleased: fields.dateReleased ?? null })
    .onConflictDoUpdate({
      target: [releases.organizationId, releases.version],
      set: {
        url: sql`coalesce(excluded.url, ${releases.url})`,
        dateStarted: sql`coalesce(${releases.dateStarted}, excluded.date_started)`,
        dateReleased: sql`coalesce(excluded.date_released, ${releases.dateReleased})`,
      },
    })
    .returning({ ...getColumns(), created: sql<boolean>`(xmax = 0)` });
  const { created, ...release } = row;
  return { row: release, created: Boolean(created) };
}

function getColumns() {
  return {
    id: releases.id,
    organizationId: releases.organizationId,
    version: releases.version,
    url: releases.url,
    dateStarted: releases.dateStarted,
    dateReleased: releases.dateReleased,
    status: releases.status,
    ref: releases.ref,
    firstSeenInEvent: releases.firstSeenInEvent,
    createdAt: releases.createdAt,
  };
}

export type ReleaseStatus = "open" | "archived";

export async function updateRelease(
  db: Db,
  organizationId: string,
  releaseId: string,
  fields: { url?: string | null; dateReleased?: Date | null; status?: ReleaseStatus; ref?: string | null },
) {
  const set: Partial<typeof releases.$inferInsert> = {};
  if (fields.url !== undefined) set.url = fields.url;
  if (fields.dateReleased !== undefined) set.dateReleased = fields.dateReleased;
  if (fields.status !== undefined) set.status = fields.status;
  if (fields.ref !== undefined) set.ref = fields.ref;
  if (Object.keys(set).length === 0) return;
  await db
    .update(releases)
    .set(set)
    .where(and(eq(releases.organizationId, organizationId), eq(releases.id, releaseId)));
}

export async function addReleaseProjects(db: Db, organizationId: string, releaseId: string, projectIds: readonly string[]) {
  if (projectIds.length === 0) return;
  await db
    .insert(releaseProjects)
    .values(projectIds.map((projectId) => ({ organizationId, releaseId, projectId })))
    .onConflictDoNothing();
}

export async function selectRelease(db: Db, organizationId: string, version: string) {
  const [row] = await db
    .select()
    .from(releases)
    .where(and(eq(releases.organizationId, organizationId), eq(releases.version, version)));
  return row ?? null;
}

/**
 * The organization's newest releases, or the newest of one project. `status` `open` (the default
 * of Sentry's lists) hides archived releases, `archived` lists only them, `any` both.
 */
export function selectReleases(db: Db, organizationId: string, projectId: string | null, limit: number, status: ReleaseStatus | "any" = "any") {
  const byStatus = status === "any" ? undefined : eq(releases.status, status);
  if (projectId === null) {
    return db
      .select(getColumns())
      .from(releases)
      .where(and(eq(releases.organizationId, organizationId), byStatus))
      .orderBy(desc(releases.createdAt), desc(releases.id))
      .limit(limit);
  }
  return db
    .select(getColumns())
    .from(releases)
    .innerJoin(releaseProjects, eq(releaseProjects.releaseId, releases.id))
    .where(
      and(eq(releases.organizationId, organizationId), eq(releaseProjects.organizationId, organizationId), eq(releaseProjects.projectId, projectId), byStatus),
    )
    .orderBy(desc(releases.createdAt), desc(releases.id))
    .limit(limit);
}

/** Deletes a release; its projects, commits and deploys go with it (foreign keys cascade). */
export async function deleteRelease(db: Db, organizationId: string, releaseId: string): Promise<boolean> {
  const deleted = await db
    .delete(releases)
    .where(and(eq(releases.organizationId, organizationId), eq(releases.id, releaseId)))
    .returning({ id: releases.id });
  return deleted.length > 0;
}

/**
 * The release created before this one (of the same organization) that has commits: what
 * `set-commits --local` asks for, so it sends only the commits after that release's newest.
 */
export async function selectPreviousReleaseWithCommits(db: Db, organizationId: string, release: Pick<ReleaseRow, "id" | "createdAt">) {
  const [row] = await db
    .select(getColumns())
    .from(releases)
    .where(
      and(
        eq(releases.organizationId, organizationId),
        // lt() binds the Date through the column's mapper (a raw Date in sql`` fails on postgres-js).
        lt(releases.createdAt, release.createdAt),
        sql`exists (select 1 from ${releaseCommits} where ${releaseCommits.releaseId} = ${releases.id} and ${releaseCommits.organizationId} = ${organizationId})`,
      ),
    )
    .orderBy(desc(releases.createdAt), desc(releases.id))
    .limit(1);
  return row ?? null;
}

export interface ReleaseIssueStats {
  /** Issues first seen in the version, in the release's projects. */
  newGroups: number;
  /** The first event of the version: the earliest first sighting of an issue first seen in it. */
  firstEvent: Date | null;
  /** The last event of the version: the latest sighting of an issue last seen in it. */
  lastEvent: Date | null;
}

/**
 * For each release, from the issues of its projects that name its version as first or last
 * release — the issue rows already hold those times, so no occurrence is read.
 */
export async function selectReleaseIssueStats(
  db: Db,
  organizationId: string,
  rows: readonly Pick<ReleaseRow, "id" | "version">[],
): Promise<Map<string, ReleaseIssueStats>> {
  const stats = new Map<string, ReleaseIssueStats>();
  if (rows.length === 0) return stats;
  const found = await db
    .select({
      releaseId: releaseProjects.releaseId,
      newGroups: sql<number>`(count(*) filter (where ${issues.firstRelease} = ${releases.version}))::int`,
      firstEvent: sql<Date | string | null>`min(${issues.firstSeen}) filter (where ${issues.firstRelease} = ${releases.version})`,
      lastEvent: sql<Date | string | null>`max(${issues.lastSeen}) filter (where ${issues.lastRelease} = ${releases.version})`,
    })
    .from(releaseProjects)
    .innerJoin(releases, and(eq(releases.id, releaseProjects.releaseId), eq(releases.organizationId, organizationId)))
    .innerJoin(
      issues,
      and(
        eq(issues.organizationId, organizationId),
        eq(issues.projectId, releaseProjects.projectId),
        sql`(${issues.firstRelease} = ${releases.version} or ${issues.lastRelease} = ${releases.version})`,
      ),
    )
    .where(
      and(
        eq(releaseProjects.organizationId, organizationId),
        inArray(
          releaseProjects.releaseId,
          rows.map((row) => row.id),
        ),
      ),
    )
    .groupBy(releaseProjects.releaseId);
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  for (const row of found) stats.set(row.releaseId, { newGroups: Number(row.newGroups), firstEvent: date(row.firstEvent), lastEvent: date(row.lastEvent) });
  return stats;
}

/** Whether any issue of the organization names the version (first, last or resolved-in release). */
export async function releaseHasIssues(db: Db, organizationId: string, version: string): Promise<boolean> {
  const [row] = await db
    .select({ id: issues.id })
    .from(issues)
    .where(
      and(
        eq(issues.organizationId, organizationId),
        sql`(${issues.firstRelease} = ${version} or ${issues.lastRelease} = ${version} or ${issues.resolvedInRelease} = ${version})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The projects of each release, by release id. */
export async function selectReleaseProjects(db: Db, organizationId: string, releaseIds: readonly string[]) {
  if (releaseIds.length === 0) return new Map<string, { id: string; slug: string; name: string; number: number }[]>();
  const rows = await db
    .select({ releaseId: releaseProjects.releaseId, id: projects.id, slug: projects.slug, name: projects.name, number: projects.number })
    .from(releaseProjects)
    .innerJoin(projects, and(eq(projects.id, releaseProjects.projectId), eq(projects.organizationId, organizationId)))
    .where(and(eq(releaseProjects.organizationId, organizationId), inArray(releaseProjects.releaseId, [...releaseIds])))
    .orderBy(asc(projects.slug));
  const byRelease = new Map<string, { id: string; slug: string; name: string; number: number }[]>();
  for (const { releaseId, ...project } of rows) (byRelease.get(releaseId) ?? byRelease.set(releaseId, []).get(releaseId)!).push(project);
  return byRelease;
}
