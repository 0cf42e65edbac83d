import type { Request } from "express";
import { z } from "zod";
import { AppError } from "../errors";
import { requirePermission } from "../organizations/permissions";
import { addReleaseProjects, deleteRelease, releaseHasIssues, selectRelease, selectReleases, updateRelease, upsertRelease } from "../releases/release.queries";
import type { SentryContext } from "./sentry-auth";
import { CommitsInBody, setCommitsFromBody } from "./sentry-commits";
import { projectsByRefs } from "./sentry-projects";
import { releaseByVersion } from "./sentry-release-lookup";
import { isReleaseVersion, MAX_RELEASE_VERSION } from "../releases/release-version";
import { sentryReleaseView, sentryReleaseViews } from "./sentry-release-view";

/** Sentry's rule for a version (releases/release-version.ts, shared with ingest). */
export const ReleaseVersion = z
  .string()
  .min(1)
  .max(MAX_RELEASE_VERSION)
  .refine(isReleaseVersion, "is not a valid release version: no slash, line break or tab, no surrounding spaces, not ., .. or latest");

const DateInput = z.coerce.date().nullish();
const ProjectRefs = z
  .array(z.union([z.string().min(1).max(100), z.number().int()]))
  .max(50)
  .optional();

const ReleaseStatus = z.enum(["open", "archived"]);

export const CreateReleaseBody = CommitsInBody.extend({
  version: ReleaseVersion,
  projects: ProjectRefs,
  url: z.string().max(2048).nullish(),
  ref: z.string().max(256).nullish(),
  dateStarted: DateInput,
  dateReleased: DateInput,
  /** `sentry-cli releases archive` and `restore` POST the release again with `projects: []` and a status. */
  status: ReleaseStatus.optional(),
});

export const UpdateReleaseBody = CommitsInBody.extend({
  projects: ProjectRefs,
  url: z.string().max(2048).nullish(),
  ref: z.string().max(256).nullish(),
  dateReleased: DateInput,
  status: ReleaseStatus.optional(),
});

/**
 * `POST /organizations/{org}/releases/` and the project-scoped twin: an upsert. sentry-cli posts a
 * release again for `set-commits`, and `releases archive` / `restore` are this call too, with
 * `projects: []` and a `status` — so an existing release may name no project (it keeps its
 * own), a new one needs at least one.
 */
export async function createRelease(ctx: SentryContext, body: unknown, projectIds?: string[]) {
  const input = CreateReleaseBody.parse(body);
  await requirePermission(ctx, "release:manage");
  const organizationId = ctx.org.organizationId;
  const exists = projectIds === undefined && !input.projects?.length && (await selectRelease(ctx.db, organizationId, input.version)) !== null;
  const ids = projectIds ?? (exists ? [] : (await projectsByRefs(ctx, input.projects ?? [])).map((project) => project.id));
  const { row, created } = await ctx.db.transaction(async (tx) => {
    const result = await upsertRelease(tx, organizationId, input.version, {
      url: input.url,
      dateStarted: input.dateStarted,
      dateReleased: input.dateReleased,
    });
    if (input.ref || input.status) await updateRelease(tx, organizationId, result.row.id, { ref: input.ref ?? undefined, status: input.status });
    await addReleaseProjects(tx, organizationId, result.row.id, ids);
    await setCommitsFromBody(tx, organizationId, result.row.id, input);
    return result;
  });
  const fresh = (await selectRelease(ctx.db, organizationId, row.version)) ?? row;
  return { status: created ? 201 : 208, body: await sentryReleaseView(ctx, fresh) };
}

/**
 * `PUT /organizations/{org}/releases/{version}/` and, with `projectId`, the project-scoped twin that
 * sentry-cli 2.x (and so the 5.x bundler plugins) calls with one project: `finalize`
 * (`dateReleased`), `archive`/`restore` (`status`), `set-commits` (`commits` or `refs`). The
 * project-scoped form only touches a release of that project and ignores `projects`, as Sentry.
 */
export async function updateReleaseByVersion(ctx: SentryContext, version: string, body: unknown, projectId?: string) {
  const input = UpdateReleaseBody.parse(body);
  await requirePermission(ctx, "release:manage");
  const release = await releaseByVersion(ctx, version, projectId);
  const organizationId = ctx.org.organizationId;
  const ids = input.projects && !projectId ? (await projectsByRefs(ctx, input.projects)).map((project) => project.id) : [];
  await ctx.db.transaction(async (tx) => {
    await updateRelease(tx, organizationId, release.id, { url: input.url, dateReleased: input.dateReleased, status: input.status, ref: input.ref });
    await addReleaseProjects(tx, organizationId, release.id, ids);
    await setCommitsFromBody(tx, organizationId, release.id, input);
  });
  return sentryReleaseView(ctx, await releaseByVersion(ctx, version));
}

/** One release; with `projectId`, only when the release is that project's. */
export async function getRelease(ctx: SentryContext, version: string, projectId?: string) {
  return sentryReleaseView(ctx, await releaseByVersion(ctx, version, projectId));
}

const ListQuery = z.object({
  /** Sentry's lists hide archived releases unless asked (`status=archived`, or `any`). */
  status: z.enum(["open", "archived", "any"]).default("open"),
  per_page: z.coerce.number().int().min(1).max(100).default(100),
});

/** `GET /organizations/{org}/releases/` or one project's: newest first, open ones unless `?status=` says otherwise. */
export async function listReleases(ctx: SentryContext, projectId: string | null, req: Pick<Request, "query">) {
  const query = ListQuery.parse({ status: req.query.status || undefined, per_page: req.query.per_page || undefined });
  return sentryReleaseViews(ctx, await selectReleases(ctx.db, ctx.org.organizationId, projectId, query.per_page, query.status));
}

/** Sentry's refusal, word for word: a release that issues name stays (its history would point nowhere). */
export const RELEASE_REFERENCED = "This release is referenced by active issues and cannot be removed.";

/**
 * `DELETE …/releases/{version}/`: removes the release with its projects, commits and deploys
 * (foreign keys cascade). Refused (400, as Sentry) while an issue names the version as its first,
 * last or resolved-in release: those issues would name a release that no longer exists.
 */
export async function removeRelease(ctx: SentryContext, version: string, projectId?: string) {
  await requirePermission(ctx, "release:manage");
  const release = await releaseByVersion(ctx, version, projectId);
  if (await releaseHasIssues(ctx.db, ctx.org.organizationId, release.version)) throw new AppError("BAD_REQUEST", RELEASE_REFERENCED);
  await deleteRelease(ctx.db, ctx.org.organizationId, release.id);
  return { status: 204, body: null };
}
