import { AppError } from "../errors";
import { selectProjectByRef, selectProjects } from "../projects/project.queries";
import type { SentryContext } from "./sentry-auth";

type ProjectRow = Awaited<ReturnType<typeof selectProjects>>[number];

/** A project as Sentry's project list answers it (the fields sentry-cli reads, `id` being the number). */
export function sentryProjectView(ctx: SentryContext, project: ProjectRow) {
  return {
    id: String(project.number),
    slug: project.slug,
    name: project.name,
    platform: project.platform.toLowerCase().replace(/_/g, "-"),
    dateCreated: project.createdAt.toISOString(),
    organization: { id: ctx.organization.id, slug: ctx.organization.slug, name: ctx.organization.name },
  };
}

/** The project a URL or body names by slug or number; an unknown one answers 404 as Sentry does. */
export async function projectByRef(ctx: SentryContext, ref: string | number) {
  const project = await selectProjectByRef(ctx.db, ctx.org.organizationId, ref);
  if (!project) throw new AppError("NOT_FOUND", "The requested resource does not exist");
  return project;
}

/** The projects a body names (`projects: [slug | number, …]`): each must be the organization's (400 otherwise, as Sentry). */
export async function projectsByRefs(ctx: SentryContext, refs: readonly (string | number)[]) {
  if (refs.length === 0) throw new AppError("BAD_REQUEST", "At least one project is required");
  const found = [];
  for (const ref of new Set(refs.map(String))) {
    const project = await selectProjectByRef(ctx.db, ctx.org.organizationId, ref);
    if (!project) throw new AppError("BAD_REQUEST", `Invalid project: ${ref.slice(0, 100)}`);
    found.push(project);
  }
  return found;
}
