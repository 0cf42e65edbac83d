import { z } from "zod";
import { ENVIRONMENTS } from "./environments";
import { pagedView } from "./paged.views";
import { IsoDay } from "./date.inputs";
import { ISSUE_SEVERITIES, ISSUE_STATUSES } from "./triage.inputs";

// What the triage API answers (tRPC and REST alike). Field names keep the original product's
// shapes (`name`, `eventCount`, `createdAt`, …) so its existing clients keep working.
// Each view is a zod schema, so the OpenAPI document describes exactly the type the services
// return; dates are Date objects here (tRPC keeps them) and ISO strings on the REST wire.

export const IssueListItem = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  /** The original product's field: the issue's title. */
  name: z.string(),
  title: z.string(),
  culprit: z.string().nullable(),
  level: z.string(),
  platform: z.string().nullable(),
  status: z.enum(ISSUE_STATUSES),
  severity: z.enum(ISSUE_SEVERITIES),
  isRegression: z.boolean(),
  firstSeen: z.date(),
  lastSeen: z.date(),
  eventCount: z.number().int(),
  userCount: z.number().int(),
  /** Environments as the SDKs named them (e.g. "production"). */
  environments: z.array(z.string()),
});
export type IssueListItem = z.infer<typeof IssueListItem>;

export const IssueTagBreakdown = z.object({
  key: z.string(),
  totalCount: z.number().int(),
  values: z.array(z.object({ value: z.string(), count: z.number().int() })),
});
export type IssueTagBreakdown = z.infer<typeof IssueTagBreakdown>;

/** Through what a person's change reached the issue, when not their own hands: the AI agent, on their approval in the chat. */
export const ISSUE_ACTIVITY_VIA = ["agent"] as const;
export type IssueActivityVia = (typeof ISSUE_ACTIVITY_VIA)[number];

export const IssueActivityEntry = z.object({
  id: z.uuid(),
  /**
   * A user's change of status or severity, or a regression (a new exception reopened a resolved issue; no actor).
   * waf_block / waf_unblock: an address blocked from this issue (`to` the CIDR, `from` the IP set's name).
   * merge / unmerge: issues joined or split by their fingerprints (see issue-grouping).
   * resolved_in_release / resolved_in_next_release: resolved by a user in a release (`from` the
   * previous status, `to` the named release, or the project's latest release when "next" was chosen).
   * regression_in_release: an issue resolved in a release reopened by an event of a newer release
   * (`from` the release it was resolved in, `to` the event's release; null: the event had none known).
   */
  kind: z.enum([
    "status",
    "severity",
    "regression",
    "waf_block",
    "waf_unblock",
    "merge",
    "unmerge",
    "resolved_in_release",
    "resolved_in_next_release",
    "regression_in_release",
  ]),
  from: z.string().nullable(),
  to: z.string().nullable(),
  createdAt: z.date(),
  /** better-auth user ids are not UUIDs. */
  actor: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  /** "agent": the AI agent made the change, on the actor's approval in the chat; null: the actor made it themselves. */
  via: z.enum(ISSUE_ACTIVITY_VIA).nullable(),
});
export type IssueActivityEntry = z.infer<typeof IssueActivityEntry>;

/** A release the issue's events came from, with how many (the counted `release` tag). */
export const IssueRelease = z.object({ version: z.string(), count: z.number().int() });
export type IssueRelease = z.infer<typeof IssueRelease>;

export const IssueDetail = IssueListItem.extend({
  /** The release of the issue's first and of its latest event (null: no event named one). */
  firstRelease: z.string().nullable(),
  lastRelease: z.string().nullable(),
  /**
   * Resolved in a release (only while RESOLVED): events of releases before it keep the issue
   * resolved; with `resolvedInNextRelease`, it is the project's latest release when resolved and its
   * own events keep the issue resolved too.
   */
  resolvedInRelease: z.string().nullable(),
  resolvedInNextRelease: z.boolean(),
  /** The releases the issue's events came from, newest release first (at most 20). */
  releases: z.array(IssueRelease),
  resolvedAt: z.date().nullable(),
  groupingVersion: z.number().int(),
  latestExceptionId: z.uuid().nullable(),
  tags: z.array(IssueTagBreakdown),
  activity: z.array(IssueActivityEntry),
});
export type IssueDetail = z.infer<typeof IssueDetail>;

/** A release of the project an issue can be resolved in (newest first). */
export const ReleaseChoice = z.object({ version: z.string(), createdAt: z.date() });
export type ReleaseChoice = z.infer<typeof ReleaseChoice>;

export const BulkStatusResult = z.object({ updated: z.number().int() });
export type BulkStatusResult = z.infer<typeof BulkStatusResult>;

export const ExceptionListItem = z.object({
  id: z.uuid(),
  issueId: z.uuid(),
  /** The SDK's event id (32 hex). */
  eventId: z.string(),
  createdAt: z.date(),
  timestamp: z.date(),
  environment: z.enum(ENVIRONMENTS),
  /** The environment string as the SDK sent it. */
  environmentName: z.string().nullable(),
  platform: z.string().nullable(),
  level: z.string(),
  release: z.string().nullable(),
  /** The thrown exception's type. */
  name: z.string().nullable(),
  message: z.string().nullable(),
});
export type ExceptionListItem = z.infer<typeof ExceptionListItem>;

export const ExceptionTag = z.object({ key: z.string(), value: z.string() });
export type ExceptionTag = z.infer<typeof ExceptionTag>;

export const ExceptionDetail = ExceptionListItem.extend({
  /**
   * This exception's own tags: what its issue's tag breakdown counted for it (environment, release,
   * level, server_name, handled, then the SDK event's tags), not the issue's aggregate.
   */
  tags: z.array(ExceptionTag),
  /** The whole stored occurrence (see occurrence.types.ts NormalizedOccurrence). */
  data: z.record(z.string(), z.unknown()),
});
export type ExceptionDetail = z.infer<typeof ExceptionDetail>;

export const DailyCount = z.object({ date: IsoDay, count: z.number().int() });
export type DailyCount = z.infer<typeof DailyCount>;

export const EventListItem = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  name: z.string(),
  properties: z.record(z.string(), z.unknown()),
  createdAt: z.date(),
});
export type EventListItem = z.infer<typeof EventListItem>;

export const IssuePage = pagedView(IssueListItem);
export const ExceptionPage = pagedView(ExceptionListItem);
export const EventPage = pagedView(EventListItem);

export const ProjectOverview = z.object({
  projectId: z.uuid(),
  /** Last 14 UTC days, zero-filled, oldest first. */
  daily: z.array(DailyCount),
  /** The newest open issues (by last seen). */
  topIssues: z.array(IssueListItem),
  /** The open issues with the most exceptions in the same 14 days, most first; `windowCount` is that number. */
  frequentIssues: z.array(IssueListItem.extend({ windowCount: z.number().int() })),
});
export type ProjectOverview = z.infer<typeof ProjectOverview>;
