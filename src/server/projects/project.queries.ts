import { and, asc, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared-per-db";
import { projectKeys, projects } from "../db/schema/index";

// Every query takes the organization id: a project id alone never reaches a row. A project being
// deleted (deletion_id set) is gone for all of them: `live` is in every read.

const live = isNull(projects.deletionId);

export function selectProjects(db: Db, organizationId: string) {
  return db
    .select()
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), live))
    .orderBy(asc(projects.createdAt), asc(projects.id));
}

const projectById = preparedPerDb((db) =>
  db
    .select()
    .from(projects)
    .where(and(eq(projects.organizationId, sql.placeholder("organizationId")), eq(projects.id, sql.placeholder("projectId")), live))
    .limit(1)
    .prepare("project_by_id"),
);

/** Every project-scoped request's first read (project-scope.ts), hence built once (prepared-per-db.ts). */
export async function selectProject(db: Db, organizationId: string, projectId: string) {
  const [row] = await projectById(db).execute({ organizationId, projectId });
  return row ?? null;
}

export function selectKeys(db: Db, organizationId: string, projectIds: string[]) {
  if (projectIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(projectKeys)
    .where(and(eq(projectKeys.organizationId, organizationId), inArray(projectKeys.projectId, projectIds)))
    .orderBy(desc(projectKeys.createdAt));
}

export function activeKeyFilter(organizationId: string, projectId: string) {
  return and(eq(projectKeys.organizationId, organizationId), eq(projectKeys.projectId, projectId), isNull(projectKeys.revokedAt));
}

/** The organization's slugs that are `base` or `base-…` (what a new slug must not repeat). */
export async function selectSlugsLike(db: Db, organizationId: string, base: string): Promise<Set<string>> {
  // Slugs hold no LIKE wildcards; a numbered slug keeps at least 40 characters of its base.
  const prefix = base.slice(0, 40);
  const rows = await db
    .select({ slug: projects.slug })
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), or(eq(projects.slug, base), sql`${projects.slug} like ${`${prefix}%`}`)));
  return new Set(rows.map((row) => row.slug));
}

/**
 * A project named the way sentry-cli names it (`SENTRY_PROJECT`, `--project`, a URL's
 * `{project}`): its slug, or its number when the value is all digits (slugs never are).
 */
export async function selectProjectByRef(db: Db, organizationId: string, ref: string | number) {
  const value = String(ref);
  const match = /^[0-9]{1,9}$/.test(value) ? eq(projects.number, Number(value)) : eq(projects.slug, value);
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), match, live))
    .limit(1);
  return row ?? null;
}
