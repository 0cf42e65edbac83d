import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared-per-db";
import { projectKeys, projects } from "../db/schema/index";

// Every query takes the organization id: a project id alone never reaches a row.

export function selectProjects(db: Db, organizationId: string) {
  return db.select().from(projects).where(eq(projects.organizationId, organizationId)).orderBy(asc(projects.createdAt), asc(projects.id));
}

const projectById = preparedPerDb((db) =>
  db
    .select()
    .from(projects)
    .where(and(eq(projects.organizationId, sql.placeholder("organizationId")), eq(projects.id, sql.placeholder("projectId"))))
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
