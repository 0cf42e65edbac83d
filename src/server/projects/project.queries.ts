import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { projectKeys, projects } from "../db/schema/index";

// Every query takes the organization id: a project id alone never reaches a row.

export function selectProjects(db: Db, organizationId: string) {
  return db.select().from(projects).where(eq(projects.organizationId, organizationId)).orderBy(asc(projects.createdAt), asc(projects.id));
}

export async function selectProject(db: Db, organizationId: string, projectId: string) {
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), eq(projects.id, projectId)))
    .limit(1);
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
