import { and, count, desc, eq, gte, sql } from "drizzle-orm";
import type { DeployView, ReleaseCommitView, ReleaseIssueView } from "../../shared/release.views";
import type { Db } from "../db/client";
import { artifactBundles, deploys, issueActivities, issues, issueTagCounts } from "../db/schema/index";
import { selectReleaseCommits } from "./release-commits.queries";
import { REGRESSION_ACTIVITY_KIND } from "../issues/issue-state";

// What one release's page shows beyond its list row. Every query takes the organization id.

/** A release page lists this many new (and regressed) issues, the most frequent first. */
export const RELEASE_ISSUES_LIMIT = 50;
/** sentry-cli sends at most a few hundred commits per release; the page shows the newest. */
export const RELEASE_COMMITS_LIMIT = 200;

/** The release's commits, newest first (position 0), with their files and repository, as the views show them. */
export async function releaseCommitViews(db: Db, organizationId: string, releaseId: string, limit = RELEASE_COMMITS_LIMIT): Promise<ReleaseCommitView[]> {
  const rows = await selectReleaseCommits(db, organizationId, releaseId, limit);
  return rows.map(({ commitId, message, authorName, authorEmail, dateCommitted, repositoryName, files }) => ({
    commitId,
    message,
    authorName,
    authorEmail,
    dateCommitted,
    repository: repositoryName,
    files,
  }));
}

/** The release's deploys, newest first. */
export async function selectReleaseDeploys(db: Db, organizationId: string, releaseId: string): Promise<DeployView[]> {
  return db
    .select({
      id: deploys.id,
      environment: deploys.environment,
      name: deploys.name,
      url: deploys.url,
      dateStarted: deploys.dateStarted,
      dateFinished: deploys.dateFinished,
    })
    .from(deploys)
    .where(and(eq(deploys.organizationId, organizationId), eq(deploys.releaseId, releaseId)))
    .orderBy(desc(deploys.dateFinished), desc(deploys.id));
}

const issueColumns = {
  id: issues.id,
  title: issues.title,
  culprit: issues.culprit,
  level: issues.level,
  status: issues.status,
  eventCount: issues.eventCount,
  firstSeen: issues.firstSeen,
  lastSeen: issues.lastSeen,
};

/** The project's issues first seen in the release, the most frequent first. */
export function selectNewIssues(db: Db, organizationId: string, projectId: string, version: string): Promise<ReleaseIssueView[]> {
  return db
    .select(issueColumns)
    .from(issues)
    .where(and(eq(issues.organizationId, organizationId), eq(issues.projectId, projectId), eq(issues.firstRelease, version)))
    .orderBy(desc(issues.eventCount), desc(issues.id))
    .limit(RELEASE_ISSUES_LIMIT);
}

/**
 * The project's issues that regressed in the release. A regression activity does not record the
 * release of the event that reopened the issue, so: a regression recorded since the release was
 * created, of an issue that has events of the release (its `release` tag count).
 */
export function selectRegressedIssues(db: Db, organizationId: string, projectId: string, version: string, releaseCreatedAt: Date): Promise<ReleaseIssueView[]> {
  return db
    .select(issueColumns)
    .from(issues)
    .where(
      and(
        eq(issues.organizationId, organizationId),
        eq(issues.projectId, projectId),
        sql`exists (select 1 from ${issueActivities} where ${issueActivities.organizationId} = ${organizationId} and ${issueActivities.issueId} = ${issues.id} and ${issueActivities.kind} = ${REGRESSION_ACTIVITY_KIND} and ${gte(issueActivities.createdAt, releaseCreatedAt)})`,
        sql`exists (select 1 from ${issueTagCounts} where ${issueTagCounts.issueId} = ${issues.id} and ${issueTagCounts.key} = 'release' and ${issueTagCounts.value} = ${version})`,
      ),
    )
    .orderBy(desc(issues.lastSeen), desc(issues.id))
    .limit(RELEASE_ISSUES_LIMIT);
}

/** Source-map bundles uploaded for the release and project. */
export async function countReleaseBundles(db: Db, organizationId: string, projectId: string, version: string): Promise<number> {
  const [row] = await db
    .select({ bundles: count() })
    .from(artifactBundles)
    .where(and(eq(artifactBundles.organizationId, organizationId), eq(artifactBundles.projectId, projectId), eq(artifactBundles.release, version)));
  return Number(row?.bundles ?? 0);
}
