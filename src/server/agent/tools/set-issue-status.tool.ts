import { z } from "zod";
import { ISSUE_STATUSES } from "../../../shared/triage.inputs";
import { setIssueStatus } from "../../issues/issue.service";
import { defineAgentTool } from "./agent-tool";
import { issueSummary } from "./issue-summary";
import { issueIdInput } from "./tool-inputs";

export const setIssueStatusTool = defineAgentTool({
  name: "setIssueStatus",
  description:
    "Change an issue's status (OPEN, RESOLVED, IGNORED). The user is asked to approve the change first; it is recorded in the issue's activity as made by the agent on the user's approval.",
  kind: "write",
  input: z.object({ issueId: issueIdInput, status: z.enum(ISSUE_STATUSES) }),
  async execute(scope, input) {
    const issue = await setIssueStatus(scope, { projectId: scope.projectId, issueId: input.issueId, status: input.status });
    return issueSummary(issue);
  },
});
