import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { projects, releaseProjects, releases } from "../db/schema/index";

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

export async function updateRelease(db: Db, organizationId: string, releaseId: string, fields: { url?: string | null; dateReleased?: Date | null }) {
  const set: Partial<typeof releases.$inferInsert> = {};
  if (fields.url !== undefined) set.url = fields.url;
  if (fields.dateReleased !== undefined) set.dateReleased = fields.dateReleased;
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

/** The organization's newest releases, or the newest of one project. */
export function selectReleases(db: Db, organizationId: string, projectId: string | null, limit: number) {
  if (projectId === null) {
    return db.select().from(releases).where(eq(releases.organizationId, organizationId)).orderBy(desc(releases.createdAt), desc(releases.id)).limit(limit);
  }
  return db
    .select(getColumns())
    .from(releases)
    .innerJoin(releaseProjects, eq(releaseProjects.releaseId, releases.id))
    .where(and(eq(releases.organizationId, organizationId), eq(releaseProjects.organizationId, organizationId), eq(releaseProjects.projectId, projectId)))
    .orderBy(desc(releases.createdAt), desc(releases.id))
    .limit(limit);
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
