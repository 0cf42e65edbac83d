/**
 * One error occurrence, whichever protocol brought it (Sentry envelope, legacy store, native
 * `@traque/*` SDK). This is what grouping and the batch writer consume; nothing downstream reads
 * raw SDK JSON. It is also an API view: the stored `data` document an exception's detail answers
 * (triage.views.ts), so it lives in shared/ beside the other views rather than under ingest.
 */

export const LEVELS = ["fatal", "error", "warning", "info", "debug"] as const;
export type Level = (typeof LEVELS)[number];

/**
 * What became of a JavaScript frame when the event was symbolicated (src/server/sourcemaps/): either
 * `mapped` (its original file, line, column, function and code replaced the minified ones) or the
 * reason it was not. Each reason is defined where it is decided, in
 * src/server/sourcemaps/frame-symbolication.ts. Frames of other platforms carry none.
 */
export const FRAME_SYMBOLICATION = [
  "mapped",
  "no_debug_id",
  "bundle_not_found",
  "no_map_for_file",
  "no_mapping_at_position",
  "source_missing",
  "map_invalid",
] as const;
export type FrameSymbolication = (typeof FRAME_SYMBOLICATION)[number];

/** A JavaScript frame as the SDK sent it, before source maps replaced it (the "Minified" view). */
export interface RawFrame {
  filename: string | null;
  function: string | null;
  lineno: number | null;
  colno: number | null;
}

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
  // Native and symbolication fields (optional: only Sentry events carry them). Addresses are kept
  // as the SDK wrote them (hex strings), so an address-only frame can still be read as `0x… in lib`.
  instructionAddr?: string | null;
  symbolAddr?: string | null;
  imageAddr?: string | null;
  /** The binary or library the frame is in (`libfoo.so`, `CrashProbeiOS`). */
  package?: string | null;
  rawFunction?: string | null;
  symbol?: string | null;
  /** The frame's own platform when it differs from the event's (a native frame in a JS stack). */
  platform?: string | null;
  /** How the unwinder found the frame (`context`, `cfi`, `scan`, …). */
  trust?: string | null;
  /**
   * Local variables, trimmed, with values under sensitive names replaced by "[Filtered]"
   * (see frame-vars.ts): the likeliest place for secrets and PII, so never kept as sent.
   */
  vars?: Record<string, unknown> | null;
  /**
   * The minified frame, kept when a source map rewrote this one (`symbolication` is `mapped` or
   * `source_missing`); absent when the frame is as the SDK sent it.
   */
  raw?: RawFrame;
  /** JavaScript frames only: `mapped`, or why the frame could not be (FRAME_SYMBOLICATION). */
  symbolication?: FrameSymbolication;
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
  description?: string | null;
  helpLink?: string | null;
  /** This entry is an exception group (Python's ExceptionGroup, JS AggregateError); its children name it in parentId. */
  isExceptionGroup?: boolean;
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
  /** Cookie values are secrets: only the names are kept, each value "[Filtered]". */
  cookies?: Record<string, string> | null;
  /** The request body, trimmed, values under sensitive names filtered. */
  data?: unknown;
  /** CGI/WSGI environment (REMOTE_ADDR, SERVER_NAME, …), trimmed and filtered. */
  env?: Record<string, unknown> | null;
}

export interface NormalizedUser {
  id: string | null;
  email: string | null;
  username: string | null;
  /** Only a valid IPv4/IPv6 address (or `{{auto}}` resolved to the connection's): anything else is dropped. */
  ip: string | null;
  name?: string | null;
  geo?: Record<string, unknown> | null;
  data?: Record<string, unknown> | null;
}

/** One loaded binary image of a native event (`debug_meta.images`), what a symbolicator needs. */
export interface NormalizedDebugImage {
  type: string | null;
  /** code_file (or the Apple `name`): the path of the binary. */
  name: string | null;
  /** Load address, hex. */
  address: string | null;
  size: number | null;
  /** debug_id (or the Apple `uuid`). */
  debugId: string | null;
  codeId: string | null;
  debugFile: string | null;
  arch: string | null;
}

/** A thread of the event (`threads.values`): the crashed one keeps its stack. */
export interface NormalizedThread {
  id: string | null;
  name: string | null;
  crashed: boolean;
  current: boolean;
  /** Frames of the crashed (or, without one, the current) thread only; other threads are listed without. */
  frames: NormalizedFrame[];
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
  /**
   * The environment string as sent, or null when the SDK sent none (shown as "no environment"; it
   * counts in the PRODUCTION bucket, the SDKs' default — see toEnvironmentBucket).
   */
  environment: string | null;
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
  // Fields kept for the detail screen (optional so the native SDK path need not fill them).
  /** The SDK's own culprit, when it sent one (it wins over the derived one, as in Sentry). */
  culprit?: string | null;
  dist?: string | null;
  /** Package name → version (`modules`). */
  modules?: Record<string, string>;
  threads?: NormalizedThread[];
  debugImages?: NormalizedDebugImage[];
  /**
   * The SDK's own timestamp when the stored one differs from it: outside the accepted range
   * (older than 30 days, more than a minute ahead) or corrected for clock drift.
   */
  originalTimestamp?: string | null;
  /** Why the timestamp was adjusted: "past_timestamp", "future_timestamp", "clock_drift", "missing". */
  timestampAdjustment?: string | null;
}
