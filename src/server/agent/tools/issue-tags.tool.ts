import { z } from "zod";
import { getIssue } from "../../issues/issue.service";
import { defineAgentTool } from "./agent-tool";
import { issueIdInput } from "./tool-inputs";

export const issueTagsTool = defineAgentTool({
  name: "issueTags",
  description:
    "How an issue's occurrences are distributed over tag values (browser, os, release, environment, custom tags): counts and share per value. Optionally only one tag key.",
  kind: "read",
  input: z.object({
    issueId: issueIdInput,
    key: z.string().max(200).optional().describe("Only this tag key (e.g. browser)"),
  }),
  async execute(scope, input) {
    const issue = await getIssue(scope, { projectId: scope.projectId, issueId: input.issueId });
    const tags = input.key ? issue.tags.filter((tag) => tag.key === input.key) : issue.tags;
    return {
      issueId: issue.id,
      tags: tags.map((tag) => ({
        key: tag.key,
        totalCount: tag.totalCount,
        values: tag.values.map((value) => ({
          value: value.value,
          count: value.count,
          share: tag.totalCount > 0 ? Math.round((value.count / tag.totalCount) * 1000) / 1000 : 0,
        })),
      })),
    };
  },
});
