import { and, count, desc, eq, inArray, max, min, or, sql, type SQL } from "drizzle-orm";
import type { ReleaseStatusFilter } from "../../shared/release.inputs";
import type { Db } from "../db/client";
import { offsetOf } from "../db/paging";
import { deploys, issues, issueTagCounts, releaseCommits, releaseHealthHourly, releaseProjects, releases } from "../db/schema/index";

// The release list of one project, page by page, and the per-release figures its rows show. Every
// query takes the organization id; the per-release figures are scoped to the project where the
// figure is a project's (issues, events) and to the release where it is the organization's
// (commits and deploys belong to the release, as in Sentry).

export interface ReleasePageFilter {
  status: ReleaseStatusFilter;
  environment?: string;
  page: number;
  size: number;
}

const releaseColumns = {
  id: releases.id,
  version: releases.version,
  status: releases.status,
  url: releases.url,
  ref: releases.ref,
  createdAt: releases.createdAt,
  dateReleased: releases.dateReleased,
};
export type ReleaseListRow = {
  id: string;
  version: string;
  status: string;
  url: string | null;
  ref: string | null;
  createdAt: Date;
  dateReleased: Date | null;
};

function projectReleasesWhere(organizationId: string, projectId: string, filter: Pick<ReleasePageFilter, "status" | "environment">): SQL {
  const environment = filter.environment;
  return and(
    eq(releases.organizationId, organizationId),
    eq(releaseProjects.organizationId, organizationId),
    eq(releaseProjects.projectId, projectId),
    filter.status === "all" ? undefined : eq(releases.status, filter.status),
    // An environment keeps the releases that had sessions in it or were deployed to it.
    environment === undefined
      ? undefined
      : or(
          sql`exists (select 1 from ${releaseHealthHourly} where ${releaseHealthHourly.organizationId} = ${organizationId} and ${releaseHealthHourly.projectId} = ${projectId} and ${releaseHealthHourly.release} = ${releases.version} and ${releaseHealthHourly.environment} = ${environment})`,
          sql`exists (select 1 from ${deploys} where ${deploys.organizationId} = ${organizationId} and ${deploys.releaseId} = ${releases.id} and ${deploys.environment} = ${environment})`,
        ),
  ) as SQL;
}

/** One page of the project's releases, newest first, and how many match. */
export async function selectReleasePage(
  db: Db,
  organizationId: string,
  projectId: string,
  filter: ReleasePageFilter,
): Promise<{ rows: ReleaseListRow[]; total: number }> {
  const where = projectReleasesWhere(organizationId, projectId, filter);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(releaseColumns)
      .from(releases)
      .innerJoin(releaseProjects, eq(releaseProjects.releaseId, releases.id))
      .where(where)
      .orderBy(desc(releases.createdAt), desc(releases.id))
      .limit(filter.size)
      .offset(offsetOf(filter.page, filter.size)),
    db.select({ total: count() }).from(releases).innerJoin(releaseProjects, eq(releaseProjects.releaseId, releases.id)).where(where),
  ]);
  return { rows, total: Number(total) };
}

/** One release of the project by its version (archived ones included), or null. */
export async function selectProjectRelease(db: Db, organizationId: string, projectId: string, version: string): Promise<ReleaseListRow | null> {
  const [row] = await db
    .select(releaseColumns)
    .from(releases)
    .innerJoin(releaseProjects, eq(releaseProjects.releaseId, releases.id))
    .where(and(projectReleasesWhere(organizationId, projectId, { status: "all", environment: undefined }), eq(releases.version, version)));
  return row ?? null;
}

export interface ReleaseFigures {
  newIssues: number;
  events: number;
  firstEvent: Date | null;
  lastEvent: Date | null;
  deploys: number;
  commitCount: number;
}

/**
 * The figures of each release row. Events are the release's `release` tag counts summed over the
 * project's issues (kept at ingest): no occurrence is counted. First and last event come from the
 * issues' own first and last sightings — an issue first seen in the release was first seen then,
 * and one whose latest event is of the release was last seen then.
 */
export async function selectReleaseFigures(
  db: Db,
  organizationId: string,
  projectId: string,
  rows: readonly Pick<ReleaseListRow, "id" | "version">[],
  environment: string | undefined,
): Promise<Map<string, ReleaseFigures>> {
  const figures = new Map<string, ReleaseFigures>();
  if (rows.length === 0) return figures;
  const versions = rows.map((row) => row.version);
  const ids = rows.map((row) => row.id);
  const issueScope = and(eq(issues.organizationId, organizationId), eq(issues.projectId, projectId));
  const [firsts, lasts, events, deployCounts, commitCounts] = await Promise.all([
    db
      .select({ release: issues.firstRelease, newIssues: count(), firstEvent: min(issues.firstSeen) })
      .from(issues)
      .where(and(issueScope, inArray(issues.firstRelease, versions)))
      .groupBy(issues.firstRelease),
    db
      .select({ release: issues.lastRelease, lastEvent: max(issues.lastSeen) })
      .from(issues)
      .where(and(issueScope, inArray(issues.lastRelease, versions)))
      .groupBy(issues.lastRelease),
    db
      .select({ release: issueTagCounts.value, events: sql<string>`coalesce(sum(${issueTagCounts.count}), 0)` })
      .from(issueTagCounts)
      .where(
        and(
          eq(issueTagCounts.organizationId, organizationId),
          eq(issueTagCounts.projectId, projectId),
          eq(issueTagCounts.key, "release"),
          inArray(issueTagCounts.value, versions),
        ),
      )
      .groupBy(issueTagCounts.value),
    db
      .select({ releaseId: deploys.releaseId, deploys: count() })
      .from(deploys)
      .where(
        and(
          eq(deploys.organizationId, organizationId),
          inArray(deploys.releaseId, ids),
          environment === undefined ? undefined : eq(deploys.environment, environment),
        ),
      )
      .groupBy(deploys.releaseId),
    db
      .select({ releaseId: releaseCommits.releaseId, commits: count() })
      .from(releaseCommits)
      .where(and(eq(releaseCommits.organizationId, organizationId), inArray(releaseCommits.releaseId, ids)))
      .groupBy(releaseCommits.releaseId),
  ]);
  const firstOf = new Map(firsts.map((row) => [row.release, row]));
  const lastOf = new Map(lasts.map((row) => [row.release, row.lastEvent]));
  const eventsOf = new Map(events.map((row) => [row.release, Number(row.events)]));
  const deploysOf = new Map(deployCounts.map((row) => [row.releaseId, Number(row.deploys)]));
  const commitsOf = new Map(commitCounts.map((row) => [row.releaseId, Number(row.commits)]));
  for (const row of rows) {
    const first = firstOf.get(row.version);
    figures.set(row.version, {
      newIssues: Number(first?.newIssues ?? 0),
      events: eventsOf.get(row.version) ?? 0,
      firstEvent: first?.firstEvent ?? null,
      lastEvent: lastOf.get(row.version) ?? null,
      deploys: deploysOf.get(row.id) ?? 0,
      commitCount: commitsOf.get(row.id) ?? 0,
    });
  }
  return figures;
}
