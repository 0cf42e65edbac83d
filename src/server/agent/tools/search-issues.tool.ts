import { z } from "zod";
import { ENVIRONMENTS } from "../../../shared/environments";
import { ISSUE_SEVERITIES, ISSUE_SORT_FIELDS, ISSUE_STATUSES, ListIssuesInput } from "../../../shared/triage.inputs";
import { searchIssues } from "../../issues/issue.service";
import { defineAgentTool } from "./agent-tool";
import { issueSummary } from "./issue-summary";
import { toolDateInput } from "./tool-inputs";

export const searchIssuesTool = defineAgentTool({
  name: "searchIssues",
  description:
    "Search the project's issues (groups of identical errors). Filter by status, severity, environment, a time window on when the issue was last seen, and text in the title, culprit or latest message; sort by a field. Returns at most `limit` issues and whether more match (narrow the filters or raise the limit to see them).",
  kind: "read",
  input: z.object({
    status: z.array(z.enum(ISSUE_STATUSES)).max(3).optional().describe("Only issues in these statuses"),
    severity: z.array(z.enum(ISSUE_SEVERITIES)).max(4).optional().describe("Only issues of these severities"),
    environments: z.array(z.enum(ENVIRONMENTS)).max(3).optional().describe("Only issues seen in these environment buckets"),
    dateFrom: toolDateInput.optional().describe("Only issues last seen at or after this time"),
    dateTo: toolDateInput.optional().describe("Only issues last seen at or before this time"),
    text: z.string().max(200).optional().describe("Text to look for in the title, culprit or latest message"),
    sort: z.enum(ISSUE_SORT_FIELDS).default("lastSeen").describe("Field to sort by"),
    direction: z.enum(["ASC", "DESC"]).default("DESC"),
    limit: z.number().int().min(1).max(50).default(10),
  }),
  async execute(scope, input) {
    const query = ListIssuesInput.parse({
      projectId: scope.projectId,
      page: 1,
      size: input.limit,
      sort: `${input.sort}:${input.direction}`,
      status: input.status,
      severity: input.severity,
      environments: input.environments,
      dateFrom: input.dateFrom,
      dateTo: input.dateTo,
      query: input.text,
    });
    // No total: counting reads every issue a text filter leaves, which the agent does not need.
    const page = await searchIssues(scope, query);
    return { issues: page.items.map(issueSummary), more: page.more };
  },
});
