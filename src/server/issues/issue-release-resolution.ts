import { IN_NEXT_RELEASE, type IssueStatus, type ProjectScope } from "../../shared/triage.inputs";
import type { ReleaseChoice } from "../../shared/triage.views";
import type { ServiceContext } from "../context";
import { AppError } from "../errors";
import { requireProject } from "../projects/project-scope";
import { selectRelease, selectReleases } from "../releases/release.queries";
import { NO_RELEASE_RESOLUTION, type ReleaseResolution } from "./issue-state";

/**
 * What "resolve in a release" stores (issue-state.ts `ReleaseResolution`). `next`: the project's
 * latest release now (releases of the project, newest by creation), so its events and older ones
 * keep the issue resolved. A version: an existing release of the organization (as Sentry, no release
 * is created here — a typo would otherwise make a release that never ships and keep the issue
 * resolved forever), the first that must no longer see the issue.
 */
export async function releaseResolutionFor(
  ctx: Pick<ServiceContext, "db" | "org">,
  projectId: string,
  { status, inRelease }: { status: IssueStatus; inRelease?: string },
): Promise<ReleaseResolution> {
  if (inRelease === undefined) return NO_RELEASE_RESOLUTION;
  // The shared inputs refuse it already; the agent's tool input reaches here unrefined.
  if (status !== "RESOLVED") throw new AppError("BAD_REQUEST", "inRelease applies only to status RESOLVED");
  const { organizationId } = ctx.org;
  if (inRelease === IN_NEXT_RELEASE) {
    const [latest] = await selectReleases(ctx.db, organizationId, projectId, 1);
    if (!latest) throw new AppError("BAD_REQUEST", "This project has no release yet: resolve it without a release, or name one.");
    return { resolvedInRelease: latest.version, resolvedInNextRelease: true };
  }
  const release = await selectRelease(ctx.db, organizationId, inRelease);
  if (!release) {
    throw new AppError(
      "BAD_REQUEST",
      `There is no release “${inRelease}” in this organization: create it first (sentry-cli releases new), or resolve in the next release.`,
    );
  }
  return { resolvedInRelease: release.version, resolvedInNextRelease: false };
}

export const RELEASE_CHOICES_LIMIT = 50;

/** The project's releases a user may resolve an issue in, newest first (the resolve control's picker). */
export async function listReleaseChoices(ctx: Pick<ServiceContext, "db" | "org" | "checkedProject">, input: ProjectScope): Promise<ReleaseChoice[]> {
  await requireProject(ctx, input.projectId);
  const rows = await selectReleases(ctx.db, ctx.org.organizationId, input.projectId, RELEASE_CHOICES_LIMIT);
  return rows.map((row) => ({ version: row.version, createdAt: row.createdAt }));
}
