import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { releaseCommitFiles, releaseCommits, repositories } from "../db/schema/index";

// Every query takes the organization id.

export interface ReleaseCommitInput {
  commitId: string;
  repositoryId: string | null;
  message: string | null;
  authorName: string | null;
  authorEmail: string | null;
  dateCommitted: Date | null;
  files: { filename: string; changeType: string | null }[];
}

/**
 * Sets the commits of a release, newest first (position 0), replacing what it had: Sentry's
 * `set-commits` replaces a release's commits, so running it twice leaves the second list.
 * The same commit id sent twice keeps its first (newest) position.
 */
export async function replaceReleaseCommits(db: Db, organizationId: string, releaseId: string, commits: readonly ReleaseCommitInput[]) {
  await db.delete(releaseCommits).where(and(eq(releaseCommits.organizationId, organizationId), eq(releaseCommits.releaseId, releaseId)));
  const seen = new Set<string>();
  const unique = commits.filter((commit) => !seen.has(commit.commitId) && seen.add(commit.commitId));
  if (unique.length === 0) return;
  const inserted = await db
    .insert(releaseCommits)
    .values(
      unique.map((commit, position) => ({
        organizationId,
        releaseId,
        repositoryId: commit.repositoryId,
        commitId: commit.commitId,
        message: commit.message,
        authorName: commit.authorName,
        authorEmail: commit.authorEmail,
        dateCommitted: commit.dateCommitted,
        position,
      })),
    )
    .returning({ id: releaseCommits.id, commitId: releaseCommits.commitId });
  const idOf = new Map(inserted.map((row) => [row.commitId, row.id]));
  const files = unique.flatMap((commit) => {
    const byName = new Map(commit.files.map((file) => [file.filename, file]));
    return [...byName.values()].map((file) => ({
      releaseCommitId: idOf.get(commit.commitId)!,
      organizationId,
      filename: file.filename,
      changeType: file.changeType,
    }));
  });
  // Large histories touch many files: insert in slices that stay far under the bind-parameter limit.
  for (let start = 0; start < files.length; start += 1000) await db.insert(releaseCommitFiles).values(files.slice(start, start + 1000));
}

export interface ReleaseCommitRow {
  id: string;
  commitId: string;
  message: string | null;
  authorName: string | null;
  authorEmail: string | null;
  dateCommitted: Date | null;
  position: number;
  repositoryName: string | null;
  files: { filename: string; changeType: string | null }[];
}

/** The commits of a release, newest first, with their repository and files. */
export async function selectReleaseCommits(db: Db, organizationId: string, releaseId: string, limit = 1000): Promise<ReleaseCommitRow[]> {
  const rows = await db
    .select({
      id: releaseCommits.id,
      commitId: releaseCommits.commitId,
      message: releaseCommits.message,
      authorName: releaseCommits.authorName,
      authorEmail: releaseCommits.authorEmail,
      dateCommitted: releaseCommits.dateCommitted,
      position: releaseCommits.position,
      repositoryName: repositories.name,
    })
    .from(releaseCommits)
    .leftJoin(repositories, and(eq(repositories.id, releaseCommits.repositoryId), eq(repositories.organizationId, organizationId)))
    .where(and(eq(releaseCommits.organizationId, organizationId), eq(releaseCommits.releaseId, releaseId)))
    .orderBy(asc(releaseCommits.position))
    .limit(limit);
  if (rows.length === 0) return [];
  const files = await db
    .select()
    .from(releaseCommitFiles)
    .where(
      and(
        eq(releaseCommitFiles.organizationId, organizationId),
        inArray(
          releaseCommitFiles.releaseCommitId,
          rows.map((row) => row.id),
        ),
      ),
    )
    .orderBy(asc(releaseCommitFiles.filename));
  const byCommit = new Map<string, { filename: string; changeType: string | null }[]>();
  for (const file of files) (byCommit.get(file.releaseCommitId) ?? byCommit.set(file.releaseCommitId, []).get(file.releaseCommitId)!).push(file);
  return rows.map((row) => ({ ...row, files: (byCommit.get(row.id) ?? []).map(({ filename, changeType }) => ({ filename, changeType })) }));
}

export interface ReleaseCommitSummary {
  commitCount: number;
  lastCommit: {
    commitId: string;
    message: string | null;
    authorName: string | null;
    authorEmail: string | null;
    dateCommitted: Date | null;
    repositoryName: string | null;
  } | null;
  /** Distinct authors, by email (or name when no email), newest commit's first. */
  authors: { name: string | null; email: string | null }[];
}

/** For each release: how many commits, the newest, and who wrote them (for release lists: one query per kind, not per release). */
export async function selectReleaseCommitSummaries(db: Db, organizationId: string, releaseIds: readonly string[]): Promise<Map<string, ReleaseCommitSummary>> {
  const summaries = new Map<string, ReleaseCommitSummary>();
  if (releaseIds.length === 0) return summaries;
  const counts = await db
    .select({ releaseId: releaseCommits.releaseId, count: sql<number>`count(*)::int` })
    .from(releaseCommits)
    .where(and(eq(releaseCommits.organizationId, organizationId), inArray(releaseCommits.releaseId, [...releaseIds])))
    .groupBy(releaseCommits.releaseId);
  for (const { releaseId, count } of counts) summaries.set(releaseId, { commitCount: Number(count), lastCommit: null, authors: [] });
  if (summaries.size === 0) return summaries;
  const newest = await db
    .select({
      releaseId: releaseCommits.releaseId,
      commitId: releaseCommits.commitId,
      message: releaseCommits.message,
      authorName: releaseCommits.authorName,
      authorEmail: releaseCommits.authorEmail,
      dateCommitted: releaseCommits.dateCommitted,
      repositoryName: repositories.name,
    })
    .from(releaseCommits)
    .leftJoin(repositories, and(eq(repositories.id, releaseCommits.repositoryId), eq(repositories.organizationId, organizationId)))
    .where(and(eq(releaseCommits.organizationId, organizationId), inArray(releaseCommits.releaseId, [...summaries.keys()]), eq(releaseCommits.position, 0)));
  for (const { releaseId, ...commit } of newest) summaries.get(releaseId)!.lastCommit = commit;
  const authors = await db
    .selectDistinctOn([releaseCommits.releaseId, sql`coalesce(${releaseCommits.authorEmail}, ${releaseCommits.authorName})`], {
      releaseId: releaseCommits.releaseId,
      name: releaseCommits.authorName,
      email: releaseCommits.authorEmail,
      position: releaseCommits.position,
    })
    .from(releaseCommits)
    .where(
      and(
        eq(releaseCommits.organizationId, organizationId),
        inArray(releaseCommits.releaseId, [...summaries.keys()]),
        sql`coalesce(${releaseCommits.authorEmail}, ${releaseCommits.authorName}) is not null`,
      ),
    )
    .orderBy(releaseCommits.releaseId, sql`coalesce(${releaseCommits.authorEmail}, ${releaseCommits.authorName})`, asc(releaseCommits.position));
  for (const author of authors.sort((a, b) => a.position - b.position))
    summaries.get(author.releaseId)!.authors.push({ name: author.name, email: author.email });
  return summaries;
}
