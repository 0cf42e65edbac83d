import { z } from "zod";
import { getIssue } from "../../issues/issue.service";
import { defineAgentTool } from "./agent-tool";
import { issueSummary } from "./issue-summary";
import { issueIdInput } from "./tool-inputs";

/** Top values per tag in the detail; the full distribution is the issueTags tool's. */
const TOP_TAG_VALUES = 3;
const ACTIVITY_ENTRIES = 10;

export const issueDetailTool = defineAgentTool({
  name: "getIssue",
  description:
    "One issue of the project in detail: counts, users affected, first and last release, top tag values, the latest exception's id and the recent triage activity (status and severity changes).",
  kind: "read",
  input: z.object({ issueId: issueIdInput }),
  async execute(scope, input) {
    const issue = await getIssue(scope, { projectId: scope.projectId, issueId: input.issueId });
    return {
      ...issueSummary(issue),
      firstRelease: issue.firstRelease,
      lastRelease: issue.lastRelease,
      resolvedAt: issue.resolvedAt?.toISOString() ?? null,
      latestExceptionId: issue.latestExceptionId,
      topTags: issue.tags.map((tag) => ({ key: tag.key, totalCount: tag.totalCount, values: tag.values.slice(0, TOP_TAG_VALUES) })),
      // Who changed it by name only: members' email addresses are not the model's business.
      activity: issue.activity.slice(0, ACTIVITY_ENTRIES).map((entry) => ({
        kind: entry.kind,
        from: entry.from,
        to: entry.to,
        at: entry.createdAt.toISOString(),
        by: entry.actor?.name ?? null,
      })),
    };
  },
});
