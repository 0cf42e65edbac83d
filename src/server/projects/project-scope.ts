import { notFound } from "../errors";
import type { OrgContext } from "../organizations/org-scope";
import { selectProject } from "./project.queries";

/**
 * The first statement of every project-scoped verb: the project must belong to the caller's
 * organization. Another tenant's project answers the same NOT_FOUND as a missing one.
 */
export async function requireProject(ctx: OrgContext, projectId: string) {
  const project = await selectProject(ctx.db, ctx.org.organizationId, projectId);
  if (!project) throw notFound("Project");
  return project;
}
