import { z } from "zod";
import { DailyStatsInput, ListIssuesInput } from "../../../shared/triage.inputs";
import type { IssueListItem } from "../../../shared/triage.views";
import { listIssues } from "../../issues/issue.service";
import { dailyStats } from "../../stats/stats.service";
import { defineAgentTool } from "./agent-tool";
import { orgContextOf, type AgentScope } from "./agent-scope";
import { issueSummary } from "./issue-summary";
import { windowInput } from "./tool-inputs";
import { previousWindow, resolveWindow, utcDayOf, type ToolWindow } from "./tool-window";

const DEFAULT_DAYS = 1;
/** Issues seen in the window that are examined (the busiest and the newest); the rest are too small to matter. */
const CANDIDATES = 50;
/** How many issues each list answers with. */
const LISTED = 10;
/** Issues compared day by day for spikes: each costs two daily-count reads. */
const SPIKE_CANDIDATES = 8;
/** A spike: at least this many occurrences in the window, and at least this factor over the previous window. */
const SPIKE_MIN_COUNT = 10;
const SPIKE_FACTOR = 2;

async function issuesSeenIn(scope: AgentScope, window: ToolWindow, sort: string) {
  const query = ListIssuesInput.parse({ projectId: scope.projectId, page: 1, size: CANDIDATES, sort, dateFrom: window.from, dateTo: window.to });
  return (await listIssues(orgContextOf(scope), query)).items;
}

async function occurrencesIn(scope: AgentScope, issueId: string, window: ToolWindow) {
  const query = DailyStatsInput.parse({ projectId: scope.projectId, issueId, from: utcDayOf(window.from), to: utcDayOf(window.to) });
  const days = await dailyStats(orgContextOf(scope), query);
  return days.reduce((sum, day) => sum + day.count, 0);
}

async function spikesAmong(scope: AgentScope, issues: IssueListItem[], window: ToolWindow) {
  const before = previousWindow(window);
  const compared = await Promise.all(
    issues.slice(0, SPIKE_CANDIDATES).map(async (issue) => {
      const [current, previous] = await Promise.all([occurrencesIn(scope, issue.id, window), occurrencesIn(scope, issue.id, before)]);
      return { issue, current, previous };
    }),
  );
  return compared
    .filter(({ current, previous }) => current >= SPIKE_MIN_COUNT && current >= SPIKE_FACTOR * Math.max(previous, 1))
    .map(({ issue, current, previous }) => ({ ...issueSummary(issue), occurrencesInWindow: current, occurrencesInPreviousWindow: previous }));
}

export const whatChangedTool = defineAgentTool({
  name: "whatChanged",
  description:
    "What is new, regressed or spiking in a time window compared with the previous window of the same length: issues first seen in the window, resolved issues that came back (regressions), and issues with at least twice as many occurrences as before (counted per UTC day).",
  kind: "read",
  input: z.object(windowInput),
  async execute(scope, input) {
    const window = resolveWindow(scope, input, DEFAULT_DAYS);
    const [newest, busiest] = await Promise.all([issuesSeenIn(scope, window, "firstSeen:DESC"), issuesSeenIn(scope, window, "eventCount:DESC")]);
    const isNew = (issue: IssueListItem) => issue.firstSeen >= window.from && issue.firstSeen <= window.to;
    const seen = new Map([...newest, ...busiest].map((issue) => [issue.id, issue]));
    const regressed = [...seen.values()].filter((issue) => issue.isRegression && !isNew(issue)).sort((a, b) => b.lastSeen.getTime() - a.lastSeen.getTime());
    return {
      window: { from: window.from.toISOString(), to: window.to.toISOString() },
      previousWindow: (({ from, to }) => ({ from: from.toISOString(), to: to.toISOString() }))(previousWindow(window)),
      newIssues: newest.filter(isNew).slice(0, LISTED).map(issueSummary),
      regressed: regressed.slice(0, LISTED).map(issueSummary),
      spiking: await spikesAmong(
        scope,
        busiest.filter((issue) => !isNew(issue)),
        window,
      ),
    };
  },
});
