import { z } from "zod";
import { AppError } from "../errors";
import { requirePermission } from "../organizations/permissions";
import {
  addReleaseProjects,
  selectRelease,
  selectReleaseProjects,
  selectReleases,
  updateRelease,
  upsertRelease,
  type ReleaseRow,
} from "../releases/release.queries";
import type { SentryContext } from "./sentry-auth";
import { projectsByRefs } from "./sentry-projects";

/** Sentry's rule for a version: no slash or line breaks, not `.`, `..` or `latest`. */
export const ReleaseVersion = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^/\r\n\t\f\v]+$/, "must not contain a slash or a line break")
  .refine((version) => version.trim() === version && ![".", "..", "latest"].includes(version), "is not a valid release version");

const DateInput = z.coerce.date().nullish();

export const CreateReleaseBody = z.object({
  version: ReleaseVersion,
  projects: z
    .array(z.union([z.string().min(1).max(100), z.number().int()]))
    .max(50)
    .optional(),
  url: z.string().max(2048).nullish(),
  dateStarted: DateInput,
  dateReleased: DateInput,
});

export const UpdateReleaseBody = z.object({
  projects: z
    .array(z.union([z.string().min(1).max(100), z.number().int()]))
    .max(50)
    .optional(),
  url: z.string().max(2048).nullish(),
  dateReleased: DateInput,
});

/** Sentry's `ReleaseInfo`: sentry-cli needs `version` and `dateCreated`; the rest is what issue 34 fills in. */
async function releaseViews(ctx: SentryContext, rows: ReleaseRow[]) {
  const projects = await selectReleaseProjects(
    ctx.db,
    ctx.org.organizationId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    version: row.version,
    shortVersion: row.version,
    ref: null,
    url: row.url,
    dateCreated: row.createdAt.toISOString(),
    dateStarted: row.dateStarted?.toISOString() ?? null,
    dateReleased: row.dateReleased?.toISOString() ?? null,
    lastEvent: null,
    firstEvent: null,
    newGroups: 0,
    commitCount: 0,
    deployCount: 0,
    lastCommit: null,
    lastDeploy: null,
    authors: [],
    status: "open",
    data: {},
    projects: (projects.get(row.id) ?? []).map((project) => ({ id: project.number, slug: project.slug, name: project.name })),
  }));
}

async function releaseView(ctx: SentryContext, row: ReleaseRow) {
  const [view] = await releaseViews(ctx, [row]);
  return view;
}

/** `POST /organizations/{org}/releases/` and the project-scoped twin: an upsert (sentry-cli re-posts a release). */
export async function createRelease(ctx: SentryContext, body: unknown, projectIds?: string[]) {
  const input = CreateReleaseBody.parse(body);
  await requirePermission(ctx, "release:manage");
  const ids = projectIds ?? (await projectsByRefs(ctx, input.projects ?? [])).map((project) => project.id);
  const { row, created } = await ctx.db.transaction(async (tx) => {
    const result = await upsertRelease(tx, ctx.org.organizationId, input.version, {
      url: input.url,
      dateStarted: input.dateStarted,
      dateReleased: input.dateReleased,
    });
    await addReleaseProjects(tx, ctx.org.organizationId, result.row.id, ids);
    return result;
  });
  return { status: created ? 201 : 208, body: await releaseView(ctx, row) };
}

/** Whether the release is one of the project's: the project-scoped routes answer 404 for any other. */
async function isProjectRelease(ctx: SentryContext, releaseId: string, projectId: string) {
  return (await selectReleaseProjects(ctx.db, ctx.org.organizationId, [releaseId])).get(releaseId)?.some((project) => project.id === projectId) ?? false;
}

/**
 * `PUT /organizations/{org}/releases/{version}/` and, with `projectId`, the project-scoped twin that
 * sentry-cli 2.x (and so the 5.x bundler plugins) calls for `releases finalize` with one project.
 * The project-scoped form only touches a release of that project and ignores `projects`, as Sentry.
 */
export async function updateReleaseByVersion(ctx: SentryContext, version: string, body: unknown, projectId?: string) {
  const input = UpdateReleaseBody.parse(body);
  await requirePermission(ctx, "release:manage");
  const release = await selectRelease(ctx.db, ctx.org.organizationId, version);
  if (!release || (projectId && !(await isProjectRelease(ctx, release.id, projectId)))) {
    throw new AppError("NOT_FOUND", "The requested resource does not exist");
  }
  const ids = input.projects && !projectId ? (await projectsByRefs(ctx, input.projects)).map((project) => project.id) : [];
  await ctx.db.transaction(async (tx) => {
    await updateRelease(tx, ctx.org.organizationId, release.id, { url: input.url, dateReleased: input.dateReleased });
    await addReleaseProjects(tx, ctx.org.organizationId, release.id, ids);
  });
  return releaseView(ctx, (await selectRelease(ctx.db, ctx.org.organizationId, version))!);
}

/** One release; with `projectId`, only when the release is that project's. */
export async function getRelease(ctx: SentryContext, version: string, projectId?: string) {
  const release = await selectRelease(ctx.db, ctx.org.organizationId, version);
  if (!release || (projectId && !(await isProjectRelease(ctx, release.id, projectId)))) {
    throw new AppError("NOT_FOUND", "The requested resource does not exist");
  }
  return releaseView(ctx, release);
}

export async function listReleases(ctx: SentryContext, projectId: string | null) {
  return releaseViews(ctx, await selectReleases(ctx.db, ctx.org.organizationId, projectId, 100));
}
