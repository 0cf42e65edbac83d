import { z } from "zod";
import { ISSUE_SEVERITIES } from "../../../shared/triage.inputs";
import { setIssueSeverity } from "../../issues/issue.service";
import { defineAgentTool } from "./agent-tool";
import { issueSummary } from "./issue-summary";
import { issueIdInput } from "./tool-inputs";

export const setIssueSeverityTool = defineAgentTool({
  name: "setIssueSeverity",
  description:
    "Change an issue's severity (LOW, MEDIUM, HIGH, CRITICAL). The user is asked to approve the change first; it is recorded in the issue's activity as made by the agent on the user's approval.",
  kind: "write",
  input: z.object({ issueId: issueIdInput, severity: z.enum(ISSUE_SEVERITIES) }),
  async execute(scope, input) {
    const issue = await setIssueSeverity(scope, { projectId: scope.projectId, issueId: input.issueId, severity: input.severity });
    return issueSummary(issue);
  },
});
