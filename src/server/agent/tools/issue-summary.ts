import type { IssueListItem } from "../../../shared/triage.views";

/** What the model needs of an issue in a list: enough to choose one and to cite it. */
export function issueSummary(issue: IssueListItem) {
  return {
    issueId: issue.id,
    title: issue.title,
    culprit: issue.culprit,
    level: issue.level,
    status: issue.status,
    severity: issue.severity,
    isRegression: issue.isRegression,
    firstSeen: issue.firstSeen.toISOString(),
    lastSeen: issue.lastSeen.toISOString(),
    eventCount: issue.eventCount,
    userCount: issue.userCount,
    environments: issue.environments,
  };
}

export type IssueSummary = ReturnType<typeof issueSummary>;
