import type { ProjectOverview } from "../../shared/triage.views";
import { toIssueListItem } from "../issues/issue.view";
import { selectDailyCountsByProject } from "../stats/stats.queries";
import { lastUtcDays, parseUtcDay, utcDaysBetween, zeroFill } from "../stats/utc-days";
import { selectFrequentOpenIssues, selectTopOpenIssues } from "./project-overview.queries";
import type { ServiceContext } from "../context";
import { selectProjects } from "./project.queries";

export const OVERVIEW_DAYS = 14;
export const OVERVIEW_TOP_ISSUES = 5;

/**
 * Every project of the organization with its 14-day chart, its newest open issues and its open
 * issues with the most exceptions in those 14 days: four queries, whatever the project count.
 */
export async function projectOverview(ctx: ServiceContext): Promise<ProjectOverview[]> {
  const { organizationId } = ctx.org;
  const projects = await selectProjects(ctx.db, organizationId);
  const ids = projects.map((project) => project.id);
  const { from, to } = lastUtcDays(OVERVIEW_DAYS);
  const [counts, top, frequent] = await Promise.all([
    selectDailyCountsByProject(ctx.db, organizationId, ids, from, to),
    selectTopOpenIssues(ctx.db, organizationId, ids, OVERVIEW_TOP_ISSUES),
    selectFrequentOpenIssues(ctx.db, organizationId, ids, from, to, OVERVIEW_TOP_ISSUES),
  ]);
  const days = utcDaysBetween(parseUtcDay(from)!, parseUtcDay(to)!);
  return projects.map((project) => ({
    projectId: project.id,
    daily: zeroFill(
      days,
      counts.filter((row) => row.projectId === project.id),
    ),
    topIssues: top.filter((row) => row.top.projectId === project.id).map((row) => toIssueListItem(row.top)),
    frequentIssues: frequent
      .filter((row) => row.projectId === project.id)
      .map(({ windowCount, rank: _rank, ...row }) => ({ ...toIssueListItem(row), windowCount })),
  }));
}
