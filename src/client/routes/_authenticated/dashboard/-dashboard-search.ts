import { z } from "zod";

/** How the project cards order their top issues: most exceptions in the chart's 14 days, or newest (last seen). */
export const TOP_ISSUE_ORDERINGS = ["frequent", "newest"] as const;
export type TopIssueOrdering = (typeof TOP_ISSUE_ORDERINGS)[number];
export const DEFAULT_TOP_ISSUES: TopIssueOrdering = "frequent";

export const DashboardSearch = z.object({ top: z.enum(TOP_ISSUE_ORDERINGS).default(DEFAULT_TOP_ISSUES).catch(DEFAULT_TOP_ISSUES) });
export type DashboardSearch = z.output<typeof DashboardSearch>;
export type DashboardSearchInput = z.input<typeof DashboardSearch>;
