import { z } from "zod";
import { pagedView } from "./paged.views";

/**
 * A release's health over its sessions (release_health_hourly, release_health_users). Rates are
 * percentages 0–100 with two decimals, and null without sessions: errors alone never make a
 * release look healthy.
 */
export const ReleaseHealth = z.object({
  sessions: z.number().int(),
  /** 100 × (1 − crashed sessions / sessions). */
  crashFreeSessions: z.number().nullable(),
  /** 100 × (1 − users with a crashed session / users), distinct users over the whole window. */
  crashFreeUsers: z.number().nullable(),
  /** This release's share of the environment's sessions in the last 24 hours (all environments when none is chosen). */
  adoption: z.number().nullable(),
});
export type ReleaseHealth = z.infer<typeof ReleaseHealth>;

/** One UTC day of a release's sessions. */
export const ReleaseHealthDay = z.object({
  day: z.string(),
  sessions: z.number().int(),
  crashed: z.number().int(),
  crashFreeSessions: z.number().nullable(),
});
export type ReleaseHealthDay = z.infer<typeof ReleaseHealthDay>;

export const ReleaseListItem = z.object({
  version: z.string(),
  status: z.string(),
  dateCreated: z.date(),
  dateReleased: z.date().nullable(),
  /** The first sighting of an issue first seen in this release (issues.first_seen), if any. */
  firstEvent: z.date().nullable(),
  /** The last event of an issue whose latest event is of this release (issues.last_seen), if any. */
  lastEvent: z.date().nullable(),
  /** Issues first seen in this release. */
  newIssues: z.number().int(),
  /** Events tagged with this release, summed from the issues' tag counts (never by counting occurrences). */
  events: z.number().int(),
  deploys: z.number().int(),
  commitCount: z.number().int(),
  health: ReleaseHealth,
  /** Sessions per UTC day over the last 14 days, oldest first (the list's sparkline). */
  sessionsByDay: z.array(z.number().int()),
});
export type ReleaseListItem = z.infer<typeof ReleaseListItem>;

export const ReleasePage = pagedView(ReleaseListItem);
export type ReleasePage = z.infer<typeof ReleasePage>;

export const ReleaseCommitView = z.object({
  commitId: z.string(),
  message: z.string().nullable(),
  authorName: z.string().nullable(),
  authorEmail: z.string().nullable(),
  dateCommitted: z.date().nullable(),
  repository: z.string().nullable(),
  /** The files the commit touched, as sentry-cli sent them. */
  files: z.array(z.object({ filename: z.string(), changeType: z.string().nullable() })),
});
export type ReleaseCommitView = z.infer<typeof ReleaseCommitView>;

export const DeployView = z.object({
  id: z.uuid(),
  environment: z.string(),
  name: z.string().nullable(),
  url: z.string().nullable(),
  dateStarted: z.date().nullable(),
  dateFinished: z.date(),
});
export type DeployView = z.infer<typeof DeployView>;

/** An issue of the release (new in it, or regressed in it). */
export const ReleaseIssueView = z.object({
  id: z.uuid(),
  title: z.string(),
  culprit: z.string().nullable(),
  level: z.string(),
  status: z.string(),
  eventCount: z.number().int(),
  firstSeen: z.date(),
  lastSeen: z.date(),
});
export type ReleaseIssueView = z.infer<typeof ReleaseIssueView>;

export const ReleaseDetail = ReleaseListItem.extend({
  url: z.string().nullable(),
  ref: z.string().nullable(),
  healthByDay: z.array(ReleaseHealthDay),
  commits: z.array(ReleaseCommitView),
  /** The release's deploys, newest first. */
  deployList: z.array(DeployView),
  newIssueList: z.array(ReleaseIssueView),
  /** Issues that regressed (resolved, then seen again) while this release was sending their events. */
  regressedIssues: z.array(ReleaseIssueView),
  /** Source-map bundles uploaded for this release and project. */
  artifactBundles: z.number().int(),
});
export type ReleaseDetail = z.infer<typeof ReleaseDetail>;

export const ReleaseEnvironmentList = z.array(z.string());

export const SuspectCommit = z.object({
  commitId: z.string(),
  message: z.string().nullable(),
  authorName: z.string().nullable(),
  authorEmail: z.string().nullable(),
  dateCommitted: z.date().nullable(),
  repository: z.string().nullable(),
  /** The commit's files that a frame of the issue's stack names. */
  matchedFiles: z.array(z.string()),
});
export type SuspectCommit = z.infer<typeof SuspectCommit>;

export const SuspectCommits = z.object({
  /** The issue's first release, whose commits were searched; null when the issue has none. */
  release: z.string().nullable(),
  commits: z.array(SuspectCommit),
  /**
   * The first deploy of that release (the issue timeline's "deployed" moment): the release's
   * earliest finished deploy to any environment, before or after the issue was first seen.
   */
  firstDeploy: z.object({ environment: z.string(), dateFinished: z.date() }).nullable(),
});
export type SuspectCommits = z.infer<typeof SuspectCommits>;
