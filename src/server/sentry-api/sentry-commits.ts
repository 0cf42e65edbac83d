import { z } from "zod";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { replaceReleaseCommits, selectReleaseCommits, type ReleaseCommitInput } from "../releases/release-commits.queries";
import { selectPreviousReleaseWithCommits } from "../releases/release.queries";
import { ensureRepositories, selectRepositoriesByName } from "../releases/repositories.queries";
import type { SentryContext } from "./sentry-auth";
import { sentryCommitView, sentryReleaseView } from "./sentry-release-view";
import { releaseByVersion } from "./sentry-release-lookup";

const CommitId = z.string().trim().min(1).max(64);
const RepositoryRef = z.string().trim().min(1).max(200);

/** A commit as `sentry-cli releases set-commits --local` sends it (snake_case, as Sentry's API). */
export const CommitBody = z.object({
  id: CommitId,
  repository: RepositoryRef.nullish(),
  message: z
    .string()
    .max(64 * 1024)
    .nullish(),
  author_name: z.string().max(256).nullish(),
  author_email: z.string().max(256).nullish(),
  timestamp: z.coerce.date().nullish(),
  patch_set: z
    .array(z.object({ path: z.string().min(1).max(4096), type: z.string().max(8).nullish() }))
    .max(10_000)
    .nullish(),
});

/** A ref as `set-commits --commit owner/repo@sha` (or `--auto`) sends it: the release's head commit in a registered repository. */
export const RefBody = z.object({ repository: RepositoryRef, commit: CommitId, previousCommit: CommitId.nullish() });

/** What the release body may carry about commits: `commits` wins over `refs`, as Sentry. */
export const CommitsInBody = z.object({
  commits: z.array(CommitBody).max(10_000).optional(),
  refs: z.array(RefBody).max(100).optional(),
});
export type CommitsInBody = z.infer<typeof CommitsInBody>;

/**
 * Sets the release's commits from a release body, in the caller's transaction (an error rolls the
 * whole update back). Commits may name a repository the organization has not registered: it is
 * registered, as Sentry does. Refs must name registered repositories (400 otherwise, as Sentry's
 * "Invalid repository names"); listing the commits between `previousCommit` and `commit` needs a
 * provider integration, which Faultline does not have (and it reaches no network), so the named
 * head commit is stored alone. A body with neither leaves the commits as they are.
 */
export async function setCommitsFromBody(db: Db, organizationId: string, releaseId: string, body: CommitsInBody) {
  if (body.commits) {
    const commits = body.commits;
    const repositoryIds = await ensureRepositories(
      db,
      organizationId,
      commits.flatMap((commit) => (commit.repository ? [commit.repository] : [])),
    );
    const rows: ReleaseCommitInput[] = commits.map((commit) => ({
      commitId: commit.id,
      repositoryId: commit.repository ? (repositoryIds.get(commit.repository) ?? null) : null,
      // git ends a message with a newline; screens and lists want the text.
      message: commit.message?.trimEnd() ?? null,
      authorName: commit.author_name ?? null,
      authorEmail: commit.author_email ?? null,
      dateCommitted: commit.timestamp ?? null,
      files: (commit.patch_set ?? []).map((file) => ({ filename: file.path, changeType: file.type ?? null })),
    }));
    await replaceReleaseCommits(db, organizationId, releaseId, rows);
    return;
  }
  if (body.refs) {
    const names = body.refs.map((ref) => ref.repository);
    const known = new Map((await selectRepositoriesByName(db, organizationId, names)).map((row) => [row.name, row.id]));
    const unknown = [...new Set(names.filter((name) => !known.has(name)))];
    if (unknown.length > 0) throw new AppError("BAD_REQUEST", `Invalid repository names: ${unknown.map((name) => name.slice(0, 200)).join(", ")}`);
    const rows: ReleaseCommitInput[] = body.refs.map((ref) => ({
      commitId: ref.commit,
      repositoryId: known.get(ref.repository)!,
      message: null,
      authorName: null,
      authorEmail: null,
      dateCommitted: null,
      files: [],
    }));
    await replaceReleaseCommits(db, organizationId, releaseId, rows);
  }
}

/** `GET …/releases/{version}/commits/`: the release's commits, newest first, in Sentry's commit shape. */
export async function listReleaseCommits(ctx: SentryContext, version: string, projectId?: string) {
  const release = await releaseByVersion(ctx, version, projectId);
  return (await selectReleaseCommits(ctx.db, ctx.org.organizationId, release.id)).map(sentryCommitView);
}

/**
 * `GET /organizations/{org}/releases/{version}/previous-with-commits/`: the release created before
 * this one that has commits, or `{}` — sentry-cli reads its `lastCommit.id` and sends only the
 * local commits after it.
 */
export async function previousReleaseWithCommits(ctx: SentryContext, version: string) {
  const release = await releaseByVersion(ctx, version);
  const previous = await selectPreviousReleaseWithCommits(ctx.db, ctx.org.organizationId, release);
  return previous ? sentryReleaseView(ctx, previous) : {};
}
