import type { ListReleasesInput, ReleaseEnvironmentsInput, ReleaseInput, SuspectCommitsInput } from "../../shared/release.inputs";
import type { Paged } from "../../shared/paging";
import type { ReleaseDetail, ReleaseListItem, SuspectCommits } from "../../shared/release.views";
import type { LagTolerantReads, ServiceContext } from "../context";
import { readDbOf } from "../db/read-db";
import type { Db } from "../db/client";
import { toPaged } from "../db/paging";
import { notFound } from "../errors";
import { requireProject } from "../projects/project-scope";
import { countReleaseBundles, selectNewIssues, selectRegressedIssues, releaseCommitViews, selectReleaseDeploys } from "./release-detail.queries";
import { HEALTH_CHART_DAYS, selectDailySessions, selectHealthEnvironments, selectReleaseHealth, SPARKLINE_DAYS } from "./release-health.queries";
import { selectProjectRelease, selectReleaseFigures, selectReleasePage, type ReleaseListRow } from "./release-list.queries";
import { selectIssueReleaseFacts } from "./suspect-commits.queries";
import { selectReleases } from "./release.queries";
import { toReleaseListItem } from "./release.view";

// Reading releases needs no grant beyond membership (the project's issues are readable the same way).
type ReadContext = Pick<ServiceContext, "db" | "org" | "checkedProject">;

/** The list's reads tolerate lag: `readDb` (the read replica when the request may use it, context.ts); the project check reads the primary. */
type ListContext = ReadContext & LagTolerantReads;

async function listItems(db: Db, organizationId: string, projectId: string, rows: ReleaseListRow[], environment: string | undefined, now: Date) {
  const versions = rows.map((row) => row.version);
  const [figures, health, daily] = await Promise.all([
    selectReleaseFigures(db, organizationId, projectId, rows, environment),
    selectReleaseHealth(db, organizationId, projectId, versions, environment, now),
    selectDailySessions(db, organizationId, projectId, versions, environment, now, SPARKLINE_DAYS),
  ]);
  return rows.map((row) =>
    toReleaseListItem(
      row,
      figures.get(row.version),
      health.get(row.version),
      (daily.get(row.version) ?? []).map((day) => day.sessions),
    ),
  );
}

/** The project's releases, newest first (archived ones only when `status` asks), with health and figures. */
export async function listReleases(ctx: ListContext, input: ListReleasesInput): Promise<Paged<ReleaseListItem>> {
  await requireProject(ctx, input.projectId);
  const { rows, total } = await selectReleasePage(readDbOf(ctx), ctx.org.organizationId, input.projectId, input);
  const items = await listItems(readDbOf(ctx), ctx.org.organizationId, input.projectId, rows, input.environment, new Date());
  return toPaged(items, total, input.page, input.size);
}

/** One release of the project: its row, daily health, commits, deploys, new and regressed issues, bundles. */
export async function getRelease(ctx: ReadContext, input: ReleaseInput): Promise<ReleaseDetail> {
  await requireProject(ctx, input.projectId);
  const { organizationId } = ctx.org;
  const row = await selectProjectRelease(ctx.db, organizationId, input.projectId, input.version);
  if (!row) throw notFound("Release");
  const now = new Date();
  const [[item], daily, commits, deployList, newIssueList, regressedIssues, artifactBundles] = await Promise.all([
    listItems(ctx.db, organizationId, input.projectId, [row], input.environment, now),
    selectDailySessions(ctx.db, organizationId, input.projectId, [row.version], input.environment, now, HEALTH_CHART_DAYS),
    releaseCommitViews(ctx.db, organizationId, row.id),
    selectReleaseDeploys(ctx.db, organizationId, row.id),
    selectNewIssues(ctx.db, organizationId, input.projectId, row.version),
    selectRegressedIssues(ctx.db, organizationId, input.projectId, row.version, row.createdAt),
    countReleaseBundles(ctx.db, organizationId, input.projectId, row.version),
  ]);
  return {
    ...item,
    url: row.url,
    ref: row.ref,
    healthByDay: daily.get(row.version) ?? [],
    commits,
    deployList,
    newIssueList,
    regressedIssues,
    artifactBundles,
  };
}

/** The version of the project's newest open release (the list's first row), or null when it has none. */
export async function newestReleaseVersion(ctx: ReadContext, projectId: string): Promise<string | null> {
  await requireProject(ctx, projectId);
  const [newest] = await selectReleases(ctx.db, ctx.org.organizationId, projectId, 1, "open");
  return newest?.version ?? null;
}

/** The environments of the project's release health (the screens' filter). */
export async function listReleaseEnvironments(ctx: ReadContext, input: ReleaseEnvironmentsInput): Promise<string[]> {
  await requireProject(ctx, input.projectId);
  return selectHealthEnvironments(ctx.db, ctx.org.organizationId, input.projectId);
}

/** The commits of the issue's first release that touched the files of its latest stack, and that release's first deploy. */
export async function getSuspectCommits(ctx: ReadContext, input: SuspectCommitsInput): Promise<SuspectCommits> {
  await requireProject(ctx, input.projectId);
  const facts = await selectIssueReleaseFacts(ctx.db, ctx.org.organizationId, input.projectId, input.issueId);
  if (!facts) throw notFound("Issue");
  return { release: facts.version, commits: facts.commits, firstDeploy: facts.firstDeploy };
}
