import { AppError } from "../errors";
import { selectRelease, selectReleaseProjects } from "../releases/release.queries";
import type { SentryContext } from "./sentry-auth";

/** Whether the release is one of the project's: the project-scoped routes answer 404 for any other. */
async function isProjectRelease(ctx: SentryContext, releaseId: string, projectId: string) {
  return (await selectReleaseProjects(ctx.db, ctx.org.organizationId, [releaseId])).get(releaseId)?.some((project) => project.id === projectId) ?? false;
}

/** The release a URL names; with `projectId` (the project-scoped routes), only a release of that project. 404 otherwise. */
export async function releaseByVersion(ctx: SentryContext, version: string, projectId?: string) {
  const release = await selectRelease(ctx.db, ctx.org.organizationId, version);
  if (!release || (projectId && !(await isProjectRelease(ctx, release.id, projectId)))) {
    throw new AppError("NOT_FOUND", "The requested resource does not exist");
  }
  return release;
}
