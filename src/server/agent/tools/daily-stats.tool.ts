import { z } from "zod";
import { ENVIRONMENTS } from "../../../shared/environments";
import { DailyStatsInput } from "../../../shared/triage.inputs";
import { dailyStats } from "../../stats/stats.service";
import { defineAgentTool } from "./agent-tool";
import { issueIdInput, windowInput } from "./tool-inputs";
import { resolveWindow, utcDayOf } from "./tool-window";

/** Used when neither the model nor the conversation names a window. */
const DEFAULT_DAYS = 14;

export const dailyStatsTool = defineAgentTool({
  name: "dailyStats",
  description:
    "Occurrences per UTC day for the whole project or one issue, zero-filled, over a window of at most 366 days. The chat shows the result as a chart.",
  kind: "read",
  input: z.object({
    issueId: issueIdInput.optional().describe("Only this issue (default: the whole project)"),
    environments: z.array(z.enum(ENVIRONMENTS)).max(3).optional(),
    ...windowInput,
  }),
  async execute(scope, input) {
    const window = resolveWindow(scope, input, DEFAULT_DAYS);
    const query = DailyStatsInput.parse({
      projectId: scope.projectId,
      issueId: input.issueId,
      environments: input.environments,
      from: utcDayOf(window.from),
      to: utcDayOf(window.to),
    });
    const days = await dailyStats(scope, query);
    return { issueId: input.issueId ?? null, from: query.from, to: query.to, total: days.reduce((sum, day) => sum + day.count, 0), days };
  },
});
