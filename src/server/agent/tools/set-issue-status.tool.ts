import { z } from "zod";
import { InRelease, ISSUE_STATUSES } from "../../../shared/triage.inputs";
import { setIssueStatus } from "../../issues/issue.service";
import { defineAgentTool } from "./agent-tool";
import { issueSummary } from "./issue-summary";
import { issueIdInput } from "./tool-inputs";

export const setIssueStatusTool = defineAgentTool({
  name: "setIssueStatus",
  description:
    "Change an issue's status (OPEN, RESOLVED, IGNORED). With RESOLVED, inRelease \"next\" resolves it in the project's next release (events of the current and older releases keep it resolved) and a release version resolves it in that release (events of older releases keep it resolved). The user is asked to approve the change first; it is recorded in the issue's activity as made by the agent on the user's approval.",
  kind: "write",
  input: z.object({ issueId: issueIdInput, status: z.enum(ISSUE_STATUSES), inRelease: InRelease }),
  async execute(scope, input) {
    const issue = await setIssueStatus(scope, { projectId: scope.projectId, issueId: input.issueId, status: input.status, inRelease: input.inRelease });
    return issueSummary(issue);
  },
});
