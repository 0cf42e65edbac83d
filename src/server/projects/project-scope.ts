import { notFound } from "../errors";
import type { ServiceContext } from "../context";
import { selectProject } from "./project.queries";

export type ProjectRow = NonNullable<Awaited<ReturnType<typeof selectProject>>>;

/**
 * The first statement of every project-scoped verb: the project must belong to the caller's
 * organization. Another tenant's project answers the same NOT_FOUND as a missing one. A project
 * the server checked earlier in the same request (`checkedProject`, never client input) is not
 * read again: the agent's tools run several services on the conversation's project in one answer.
 */
export async function requireProject(ctx: Pick<ServiceContext, "db" | "org" | "checkedProject">, projectId: string) {
  const checked = ctx.checkedProject;
  if (checked && checked.id === projectId && checked.organizationId === ctx.org.organizationId) return checked;
  const project = await selectProject(ctx.db, ctx.org.organizationId, projectId);
  if (!project) throw notFound("Project");
  return project;
}
