/**
 * One error occurrence, whichever protocol brought it (Sentry envelope, legacy store, native
 * `@traque/*` SDK). This is what grouping and the batch writer consume; nothing downstream reads
 * raw SDK JSON.
 */

export const LEVELS = ["fatal", "error", "warning", "info", "debug"] as const;
export type Level = (typeof LEVELS)[number];

export interface NormalizedFrame {
  filename: string | null;
  absPath: string | null;
  function: string | null;
  module: string | null;
  lineno: number | null;
  colno: number | null;
  /** False when the SDK did not say: grouping then falls back to all frames. */
  inApp: boolean;
  contextLine: string | null;
  preContext: string[];
  postContext: string[];
  // Local `vars` are deliberately not kept: they are the likeliest place for secrets and PII.
}

export interface NormalizedMechanism {
  type: string | null;
  handled: boolean | null;
  /** The SDK made the exception up (e.g. captureMessage with a stack); its type/value mean little. */
  synthetic: boolean;
  source: string | null;
  exceptionId: number | null;
  parentId: number | null;
  meta: unknown;
  data: unknown;
}

export interface NormalizedException {
  type: string | null;
  value: string | null;
  module: string | null;
  mechanism: NormalizedMechanism | null;
  /** Oldest call first, crashing frame last (the order SDKs send). */
  frames: NormalizedFrame[];
}

export interface NormalizedRequest {
  url: string | null;
  method: string | null;
  query: string | null;
  /** Sensitive headers (authorization, cookie, ...) replaced by "[Filtered]". */
  headers: Record<string, string>;
  clientIp: string | null;
}

export interface NormalizedUser {
  id: string | null;
  email: string | null;
  username: string | null;
  ip: string | null;
}

export interface NormalizedBreadcrumb {
  timestamp: string | null;
  type: string | null;
  category: string | null;
  level: string | null;
  message: string | null;
  data: unknown;
}

export interface NormalizedOccurrence {
  /** 32 lowercase hex digits. */
  eventId: string;
  timestamp: Date;
  level: Level;
  platform: string;
  /** The environment string as sent (default "production"); see toEnvironmentBucket for the enum. */
  environment: string;
  release: string | null;
  serverName: string | null;
  transaction: string | null;
  logger: string | null;
  /** Formatted message (message / logentry.formatted / logentry.message + params). */
  message: string | null;
  /** logentry.message before parameters were substituted: the best grouping key for messages. */
  logentryTemplate: string | null;
  /** Chain in the order sent: causes first, the exception that was thrown LAST. */
  exceptions: NormalizedException[];
  /** Top-level (or crashed thread) stack of events without exceptions, e.g. messages with a stack. */
  stacktrace: NormalizedFrame[];
  request: NormalizedRequest | null;
  user: NormalizedUser | null;
  tags: Record<string, string>;
  contexts: Record<string, unknown>;
  breadcrumbs: NormalizedBreadcrumb[];
  sdk: { name: string | null; version: string | null } | null;
  extra: Record<string, unknown>;
  /** false if any mechanism says handled:false; true if one says true; null when no SDK said. */
  handled: boolean | null;
  /** The event's own fingerprint, if it set one. */
  fingerprint: string[] | null;
}
