import type { IssueSeverity, IssueStatus } from "../../shared/triage.inputs";
import type { IssueActivityEntry, IssueDetail, IssueListItem, IssueRelease, IssueTagBreakdown } from "../../shared/triage.views";
import type { issues } from "../db/schema/index";
import type { selectIssueActivity } from "./issue-detail.queries";
import type { IssueListRow } from "./issue.queries";

type ActivityRow = Awaited<ReturnType<typeof selectIssueActivity>>[number];

export function toIssueListItem(row: IssueListRow): IssueListItem {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.title,
    title: row.title,
    culprit: row.culprit,
    level: row.level,
    platform: row.platform,
    status: row.status as IssueStatus,
    severity: row.severity as IssueSeverity,
    isRegression: row.isRegression,
    firstSeen: row.firstSeen,
    lastSeen: row.lastSeen,
    eventCount: Number(row.eventCount),
    userCount: row.userCount,
    environments: row.environments,
  };
}

function toActivityEntry(row: ActivityRow): IssueActivityEntry {
  return {
    id: row.id,
    kind: row.kind as IssueActivityEntry["kind"],
    from: row.from,
    to: row.to,
    createdAt: row.createdAt,
    actor: row.actorId ? { id: row.actorId, name: row.actorName ?? "", email: row.actorEmail ?? "" } : null,
    via: row.via as IssueActivityEntry["via"],
  };
}

export function toIssueDetail(row: typeof issues.$inferSelect, tags: IssueTagBreakdown[], activity: ActivityRow[], releases: IssueRelease[]): IssueDetail {
  const resolvedInRelease = row.status === "RESOLVED" ? row.resolvedInRelease : null;
  return {
    ...toIssueListItem(row),
    firstRelease: row.firstRelease,
    lastRelease: row.lastRelease,
    resolvedInRelease,
    resolvedInNextRelease: resolvedInRelease !== null && row.resolvedInNextRelease,
    releases,
    resolvedAt: row.resolvedAt,
    groupingVersion: row.groupingVersion,
    latestExceptionId: row.lastOccurrenceId,
    tags,
    activity: activity.map(toActivityEntry),
  };
}
