import type { EnvironmentBucket } from "./environments";
import type { IssueSeverity, IssueStatus } from "./triage.inputs";

// What the triage API answers (tRPC and REST alike). Field names keep the original product's
// shapes (`name`, `eventCount`, `createdAt`, …) so its existing clients keep working.

export interface IssueListItem {
  id: string;
  projectId: string;
  /** The original product's field: the issue's title. */
  name: string;
  title: string;
  culprit: string | null;
  level: string;
  platform: string | null;
  status: IssueStatus;
  severity: IssueSeverity;
  isRegression: boolean;
  firstSeen: Date;
  lastSeen: Date;
  eventCount: number;
  userCount: number;
  /** Environments as the SDKs named them (e.g. "production"). */
  environments: string[];
}

export interface IssueTagBreakdown {
  key: string;
  totalCount: number;
  values: { value: string; count: number }[];
}

export interface IssueActivityEntry {
  id: string;
  kind: "status" | "severity";
  from: string | null;
  to: string | null;
  createdAt: Date;
  actor: { id: string; name: string; email: string } | null;
}

export interface IssueDetail extends IssueListItem {
  firstRelease: string | null;
  lastRelease: string | null;
  resolvedAt: Date | null;
  groupingVersion: number;
  latestExceptionId: string | null;
  tags: IssueTagBreakdown[];
  activity: IssueActivityEntry[];
}

export interface ExceptionListItem {
  id: string;
  issueId: string;
  /** The SDK's event id (32 hex). */
  eventId: string;
  createdAt: Date;
  timestamp: Date;
  environment: EnvironmentBucket;
  /** The environment string as the SDK sent it. */
  environmentName: string | null;
  platform: string | null;
  level: string;
  release: string | null;
  /** The thrown exception's type. */
  name: string | null;
  message: string | null;
}

export interface ExceptionDetail extends ExceptionListItem {
  /** The whole stored occurrence (see src/server/ingest/store/occurrence.types.ts NormalizedOccurrence). */
  data: Record<string, unknown>;
}

export interface DailyCount {
  date: string;
  count: number;
}

export interface EventListItem {
  id: string;
  projectId: string;
  name: string;
  properties: Record<string, unknown>;
  createdAt: Date;
}

export interface ProjectOverview {
  projectId: string;
  /** Last 14 UTC days, zero-filled, oldest first. */
  daily: DailyCount[];
  topIssues: IssueListItem[];
}
