import { selectDeploySummaries, type DeployRow } from "../releases/deploys.queries";
import { selectReleaseCommitSummaries, type ReleaseCommitRow, type ReleaseCommitSummary } from "../releases/release-commits.queries";
import { selectReleaseIssueStats, selectReleaseProjects, type ReleaseRow } from "../releases/release.queries";
import type { SentryContext } from "./sentry-auth";

/** Sentry's short form of a version: the part after a `package@` prefix, a commit hash cut to 12. */
export function shortVersionOf(version: string) {
  const afterPackage = /^[^@]+@(.+)$/.exec(version)?.[1] ?? version;
  return /^[0-9a-f]{40}$/i.test(afterPackage) ? afterPackage.slice(0, 12) : afterPackage;
}

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** A deploy as Sentry answers it (`sentry-cli deploys list` reads these names). */
export function sentryDeployView(deploy: DeployRow) {
  return {
    id: deploy.id,
    environment: deploy.environment,
    name: deploy.name,
    url: deploy.url,
    dateStarted: iso(deploy.dateStarted),
    dateFinished: iso(deploy.dateFinished),
  };
}

/** A commit as Sentry answers it: the author as name and email (no user account), the repository by name. */
export function sentryCommitView(commit: Pick<ReleaseCommitRow, "commitId" | "message" | "authorName" | "authorEmail" | "dateCommitted" | "repositoryName">) {
  return {
    id: commit.commitId,
    message: commit.message,
    dateCreated: iso(commit.dateCommitted),
    author: commit.authorName || commit.authorEmail ? { name: commit.authorName, email: commit.authorEmail } : null,
    repository: commit.repositoryName === null ? null : { name: commit.repositoryName },
  };
}

function lastCommitView(summary: ReleaseCommitSummary | undefined) {
  return summary?.lastCommit ? sentryCommitView(summary.lastCommit) : null;
}

/**
 * Sentry's release shape (`ReleaseInfo` for sentry-cli, which needs `version` and `dateCreated`),
 * for a page of releases with one query per kind of fact, not per release.
 */
export async function sentryReleaseViews(ctx: SentryContext, rows: ReleaseRow[]) {
  const ids = rows.map((row) => row.id);
  const organizationId = ctx.org.organizationId;
  const [projects, commits, deploys, issues] = await Promise.all([
    selectReleaseProjects(ctx.db, organizationId, ids),
    selectReleaseCommitSummaries(ctx.db, organizationId, ids),
    selectDeploySummaries(ctx.db, organizationId, ids),
    selectReleaseIssueStats(ctx.db, organizationId, rows),
  ]);
  return rows.map((row) => {
    const commit = commits.get(row.id);
    const deploy = deploys.get(row.id);
    const issue = issues.get(row.id);
    return {
      version: row.version,
      shortVersion: shortVersionOf(row.version),
      ref: row.ref,
      url: row.url,
      status: row.status,
      dateCreated: row.createdAt.toISOString(),
      dateStarted: iso(row.dateStarted),
      dateReleased: iso(row.dateReleased),
      firstEvent: iso(issue?.firstEvent),
      lastEvent: iso(issue?.lastEvent),
      newGroups: issue?.newGroups ?? 0,
      commitCount: commit?.commitCount ?? 0,
      lastCommit: lastCommitView(commit),
      authors: commit?.authors ?? [],
      deployCount: deploy?.deployCount ?? 0,
      lastDeploy: deploy ? sentryDeployView(deploy.lastDeploy) : null,
      data: {},
      projects: (projects.get(row.id) ?? []).map((project) => ({ id: project.number, slug: project.slug, name: project.name })),
    };
  });
}

export async function sentryReleaseView(ctx: SentryContext, row: ReleaseRow) {
  const [view] = await sentryReleaseViews(ctx, [row]);
  return view;
}
