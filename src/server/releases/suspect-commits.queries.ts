import { and, asc, eq } from "drizzle-orm";
import type { NormalizedOccurrence } from "../../shared/occurrence.types";
import type { SuspectCommit } from "../../shared/release.views";
import type { Db } from "../db/client";
import { deploys, issues, occurrences, releaseProjects, releases } from "../db/schema/index";
import { releaseCommitViews } from "./release-detail.queries";
import { matchedFiles, stackFiles } from "./suspect-commit-paths";

/** The issue's first release (a release of its project) and the files of its latest occurrence's stack. */
async function issueReleaseAndStack(db: Db, organizationId: string, projectId: string, issueId: string) {
  const [row] = await db
    .select({ firstRelease: issues.firstRelease, firstSeen: issues.firstSeen, data: occurrences.data })
    .from(issues)
    .leftJoin(
      occurrences,
      and(eq(occurrences.organizationId, organizationId), eq(occurrences.projectId, projectId), eq(occurrences.id, issues.lastOccurrenceId)),
    )
    .where(and(eq(issues.organizationId, organizationId), eq(issues.projectId, projectId), eq(issues.id, issueId)));
  if (!row) return null;
  const release = row.firstRelease
    ? ((
        await db
          .select({ id: releases.id })
          .from(releases)
          .innerJoin(releaseProjects, and(eq(releaseProjects.releaseId, releases.id), eq(releaseProjects.projectId, projectId)))
          .where(and(eq(releases.organizationId, organizationId), eq(releases.version, row.firstRelease)))
      )[0] ?? null)
    : null;
  // jsonText parses the stored document on read.
  const stack = stackFiles((row.data ?? {}) as Partial<NormalizedOccurrence>);
  return { version: row.firstRelease, releaseId: release?.id ?? null, firstSeen: row.firstSeen, stack };
}

export interface IssueReleaseFacts {
  version: string | null;
  commits: SuspectCommit[];
  firstDeploy: { environment: string; dateFinished: Date } | null;
}

/**
 * The commits of the issue's first release that touched a file of its latest stack, newest first,
 * and that release's first deploy. Null when the issue is not the project's.
 */
export async function selectIssueReleaseFacts(db: Db, organizationId: string, projectId: string, issueId: string): Promise<IssueReleaseFacts | null> {
  const found = await issueReleaseAndStack(db, organizationId, projectId, issueId);
  if (!found) return null;
  if (!found.releaseId) return { version: found.version, commits: [], firstDeploy: null };
  const [commits, [firstDeploy]] = await Promise.all([
    found.stack.length === 0 ? Promise.resolve([]) : releaseCommitViews(db, organizationId, found.releaseId),
    db
      .select({ environment: deploys.environment, dateFinished: deploys.dateFinished })
      .from(deploys)
      .where(and(eq(deploys.organizationId, organizationId), eq(deploys.releaseId, found.releaseId)))
      .orderBy(asc(deploys.dateFinished), asc(deploys.id))
      .limit(1),
  ]);
  const suspects = commits.flatMap(({ files, ...commit }) => {
    const matched = matchedFiles(
      found.stack,
      files.map((file) => file.filename),
    );
    return matched.length > 0 ? [{ ...commit, matchedFiles: matched }] : [];
  });
  return { version: found.version, commits: suspects, firstDeploy: firstDeploy ?? null };
}
