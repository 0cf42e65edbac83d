import type { z } from "zod";
import type { DailyStatsInput } from "../../shared/triage.inputs";
import type { DailyCount } from "../../shared/triage.views";
import { AppError, notFound } from "../errors";
import { selectIssue } from "../issues/issue.queries";
import type { LagTolerantReads, ServiceContext } from "../context";
import { readDbOf } from "../db/read-db";
import { requireProject } from "../projects/project-scope";
import { selectDailyCounts, selectIssueTotals } from "./stats.queries";
import { parseUtcDay, utcDayCount, utcDaysBetween, zeroFill } from "./utc-days";

export const MAX_STATS_DAYS = 366;

function calendarDay(name: "from" | "to", day: string): number {
  const time = parseUtcDay(day);
  if (time === null) throw new AppError("BAD_REQUEST", `${name}: ${day} is not a calendar day`);
  return time;
}

/**
 * The days of from..to, counted BEFORE any is built: 0000-01-01..9999-12-31 once built 3.65
 * million strings (seconds of a blocked event loop for every tenant) only to be refused after.
 */
function dayRange(from: string, to: string): string[] {
  const start = calendarDay("from", from);
  const end = calendarDay("to", to);
  const count = utcDayCount(start, end);
  if (count > MAX_STATS_DAYS) throw new AppError("BAD_REQUEST", `The range spans ${count} days; at most ${MAX_STATS_DAYS} days are allowed`);
  return utcDaysBetween(start, end);
}

/** Occurrences per UTC day, from..to inclusive, zero-filled; for a project, optionally one issue and environments. */
export async function dailyStats(
  ctx: Pick<ServiceContext, "db" | "org" | "checkedProject"> & LagTolerantReads,
  input: z.output<typeof DailyStatsInput>,
): Promise<DailyCount[]> {
  const days = dayRange(input.from, input.to);
  await requireProject(ctx, input.projectId);
  const { organizationId } = ctx.org;
  // The rollups tolerate lag: the read replica when the request may use it (context.ts).
  const db = readDbOf(ctx);
  // Whether the issue exists is the primary's word: the standby may not have a new one yet.
  if (input.issueId && !(await selectIssue(ctx.db, organizationId, input.projectId, input.issueId))) throw notFound("Issue");
  const counts = await selectDailyCounts(db, organizationId, input.projectId, input);
  return zeroFill(days, counts);
}

/**
 * How many occurrences each of several issues of a project had over from..to (UTC days,
 * inclusive), from the same rollups: one read where a daily series per issue would be one each.
 * An id that is not an issue of the project counts 0. A sum builds no series, so any range is allowed.
 */
export async function issueTotals(
  ctx: Pick<ServiceContext, "db" | "org" | "checkedProject">,
  input: { projectId: string; issueIds: string[]; from: string; to: string },
): Promise<Map<string, number>> {
  calendarDay("from", input.from);
  calendarDay("to", input.to);
  await requireProject(ctx, input.projectId);
  return selectIssueTotals(ctx.db, ctx.org.organizationId, input.projectId, input.issueIds, input.from, input.to);
}
