import { z } from "zod";
import { IsoDay } from "./date.inputs";
import { IssueDetail } from "./triage.views";

// What an issue export answers as JSON (`format=json`); the Markdown export renders the same
// document (server/exports/issue-markdown.ts). Frames are the stored ones, as the exception screen
// shows them: already symbolicated at ingest, with the minified frame beside a mapped one.

export const ExportedFrame = z.object({
  filename: z.string().nullable(),
  absPath: z.string().nullable(),
  function: z.string().nullable(),
  module: z.string().nullable(),
  lineno: z.number().nullable(),
  colno: z.number().nullable(),
  inApp: z.boolean(),
  contextLine: z.string().nullable(),
  preContext: z.array(z.string()),
  postContext: z.array(z.string()),
  instructionAddr: z.string().nullable(),
  package: z.string().nullable(),
  /** JavaScript frames: "mapped" by a source map, or why not (shared/occurrence.types.ts). */
  symbolication: z.string().nullable(),
  /** The minified frame the SDK sent, when a source map rewrote this one. */
  raw: z.object({ filename: z.string().nullable(), function: z.string().nullable(), lineno: z.number().nullable(), colno: z.number().nullable() }).nullable(),
});
export type ExportedFrame = z.infer<typeof ExportedFrame>;

export const ExportedException = z.object({
  type: z.string().nullable(),
  value: z.string().nullable(),
  module: z.string().nullable(),
  mechanism: z.object({ type: z.string().nullable(), handled: z.boolean().nullable(), synthetic: z.boolean() }).nullable(),
  /** Oldest call first, crashing frame last (as stored and as SDKs send). */
  frames: z.array(ExportedFrame),
});
export type ExportedException = z.infer<typeof ExportedException>;

export const ExportedBreadcrumb = z.object({
  timestamp: z.string().nullable(),
  type: z.string().nullable(),
  category: z.string().nullable(),
  level: z.string().nullable(),
  message: z.string().nullable(),
});

export const ExportedOccurrence = z.object({
  id: z.uuid(),
  eventId: z.string(),
  timestamp: z.date(),
  receivedAt: z.date(),
  environment: z.string().nullable(),
  release: z.string().nullable(),
  level: z.string(),
  platform: z.string().nullable(),
  message: z.string().nullable(),
  /** The chain in the order the exception screen shows it: the thrown exception first, then each cause. */
  exceptions: z.array(ExportedException),
  /** The stack of an event without exceptions (a message captured with a stack). */
  stacktrace: z.array(ExportedFrame),
  request: z
    .object({ url: z.string().nullable(), method: z.string().nullable(), query: z.string().nullable(), headers: z.record(z.string(), z.string()) })
    .nullable(),
  user: z.object({ id: z.string().nullable(), email: z.string().nullable(), username: z.string().nullable(), ip: z.string().nullable() }).nullable(),
  /** This occurrence's tags, as its exception screen lists them. */
  tags: z.array(z.object({ key: z.string(), value: z.string() })),
  /** The newest breadcrumbs (at most MAX_EXPORT_BREADCRUMBS), oldest first. */
  breadcrumbs: z.array(ExportedBreadcrumb),
  /** How many older breadcrumbs the export left out. */
  breadcrumbsOmitted: z.number().int(),
});
export type ExportedOccurrence = z.infer<typeof ExportedOccurrence>;

/** The issue as its screen shows it, less the activity log and the original product's `name` alias. */
export const ExportedIssue = IssueDetail.omit({ activity: true, name: true });
export type ExportedIssue = z.infer<typeof ExportedIssue>;

export const IssueExport = z.object({
  exportedAt: z.date(),
  /** The link to the issue in Faultline. */
  url: z.string(),
  issue: ExportedIssue,
  /** The `limit` asked for: `occurrences` holds at most this many, newest first. */
  limit: z.number().int(),
  occurrences: z.array(ExportedOccurrence),
});
export type IssueExport = z.infer<typeof IssueExport>;

/**
 * One project's stored data. `occurrences` and `oldestDay` are exact (the daily rollups ingest keeps
 * in the occurrences' own transaction); `bytes` is an estimate (server/storage/storage.queries.ts).
 */
export const ProjectStorage = z.object({
  projectId: z.uuid(),
  name: z.string(),
  slug: z.string(),
  occurrences: z.number().int(),
  bytes: z.number().int(),
  /** The oldest UTC day with an occurrence kept; null when the project has none. */
  oldestDay: IsoDay.nullable(),
});
export type ProjectStorage = z.infer<typeof ProjectStorage>;

export const OrganizationStorage = z.object({
  projects: z.array(ProjectStorage),
  totals: z.object({ occurrences: z.number().int(), bytes: z.number().int(), oldestDay: IsoDay.nullable() }),
  /** How `bytes` is measured, for the screen's footnote and API readers. */
  bytesMethod: z.literal("sampled-row-size"),
});
export type OrganizationStorage = z.infer<typeof OrganizationStorage>;
