import type { Db } from "../db/client";
import { notFound } from "../errors";
import type { OrgScope } from "../organizations/membership";
import { selectProject } from "./project.queries";

/** What every triage verb acts with: a database and the caller's organization (actor = org.userId). */
export interface OrgContext {
  db: Db;
  org: OrgScope;
}

/**
 * The first statement of every project-scoped verb: the project must belong to the caller's
 * organization. Another tenant's project answers the same NOT_FOUND as a missing one.
 */
export async function requireProject(ctx: OrgContext, projectId: string) {
  const project = await selectProject(ctx.db, ctx.org.organizationId, projectId);
  if (!project) throw notFound("Project");
  return project;
}
