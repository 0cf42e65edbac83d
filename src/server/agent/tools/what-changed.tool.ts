import { z } from "zod";
import { ListIssuesInput } from "../../../shared/triage.inputs";
import type { IssueListItem } from "../../../shared/triage.views";
import { searchIssues } from "../../issues/issue.service";
import { issueTotals } from "../../stats/stats.service";
import { defineAgentTool } from "./agent-tool";
import type { AgentScope } from "./agent-scope";
import { issueSummary } from "./issue-summary";
import { windowInput } from "./tool-inputs";
import { previousWindow, resolveWindow, utcDayOf, type ToolWindow } from "./tool-window";

const DEFAULT_DAYS = 1;
/** Issues seen in the window that are examined (the busiest and the newest); the rest are too small to matter. */
const CANDIDATES = 50;
/** How many issues each list answers with. */
const LISTED = 10;
/** Issues compared with the previous window for spikes (the busiest in the window). */
const SPIKE_CANDIDATES = 8;
/** A spike: at least this many occurrences in the window, and at least this factor over the previous window. */
const SPIKE_MIN_COUNT = 10;
const SPIKE_FACTOR = 2;

async function issuesSeenIn(scope: AgentScope, window: ToolWindow, sort: string) {
  const query = ListIssuesInput.parse({ projectId: scope.projectId, page: 1, size: CANDIDATES, sort, dateFrom: window.from, dateTo: window.to });
  // Uncounted: how many issues the window holds in all is not needed, and counting them cost more than the page.
  return (await searchIssues(scope, query)).items;
}

async function spikesAmong(scope: AgentScope, issues: IssueListItem[], window: ToolWindow) {
  const candidates = issues.slice(0, SPIKE_CANDIDATES);
  const totalsIn = ({ from, to }: ToolWindow) =>
    issueTotals(scope, { projectId: scope.projectId, issueIds: candidates.map((issue) => issue.id), from: utcDayOf(from), to: utcDayOf(to) });
  const [current, previous] = await Promise.all([totalsIn(window), totalsIn(previousWindow(window))]);
  return candidates
    .map((issue) => ({ issue, current: current.get(issue.id) ?? 0, previous: previous.get(issue.id) ?? 0 }))
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
