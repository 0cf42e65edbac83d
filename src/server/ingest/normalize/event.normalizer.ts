import { randomUUID } from "node:crypto";
import { readEventMessage } from "./event-message";
import { normalizeEventId } from "./event-id";
import { deriveHandled, normalizeEventStacktrace, normalizeExceptionChain } from "./exception.normalizer";
import { IngestError } from "../http/ingest-error";
import { DEFAULT_TRIM_LIMITS, type TrimLimits } from "../http/ingest-limits";
import { LEVELS, type Level, type NormalizedBreadcrumb, type NormalizedOccurrence } from "../../../shared/occurrence.types";
import { normalizeRequest, normalizeUser } from "./request.normalizer";
import { readEventTime } from "./event-timestamp";
import { normalizeDebugImages, normalizeModules, normalizeThreads } from "./threads-and-images.normalizer";
import { isPlainObject, readJsonRecord, readString, readStringRecord, readTimestamp, trimJson, trimString } from "./value-coercion";

export interface NormalizeOptions {
  /** When the server received the event; fills a missing timestamp and caps future ones. */
  receivedAt?: Date;
  /** The connection's address, used only when the SDK asks for it with `{{auto}}`. */
  connectionIp?: string | null;
  /** Envelope header event_id, used when the event payload has none. */
  fallbackEventId?: string | null;
  /** Envelope header `sent_at`: the device's clock at sending, to correct its drift (Relay's rule). */
  sentAt?: string | null;
  limits?: Partial<TrimLimits>;
}

/** The platforms Relay accepts; any other value is stored as "other" (as Relay does). */
const VALID_PLATFORMS = new Set([
  "as3",
  "c",
  "cfml",
  "cocoa",
  "csharp",
  "elixir",
  "haskell",
  "go",
  "groovy",
  "java",
  "javascript",
  "native",
  "node",
  "objc",
  "other",
  "perl",
  "php",
  "python",
  "ruby",
]);

function readPlatform(value: unknown): string {
  const platform = readString(value, 64);
  return platform !== null && VALID_PLATFORMS.has(platform) ? platform : "other";
}

// A Map, not an object literal: "constructor" or "__proto__" must not find Object.prototype's members.
const LEVEL_ALIASES = new Map<string, Level>([
  ["warn", "warning"],
  ["critical", "fatal"],
  ["log", "info"],
]);

function readLevel(value: unknown): Level {
  if (typeof value !== "string") return "error";
  const lower = value.toLowerCase();
  if ((LEVELS as readonly string[]).includes(lower)) return lower as Level;
  return LEVEL_ALIASES.get(lower) ?? "error";
}

function readBreadcrumbs(event: Record<string, unknown>, limits: TrimLimits): NormalizedBreadcrumb[] {
  const raw = isPlainObject(event.breadcrumbs) ? event.breadcrumbs.values : event.breadcrumbs;
  if (!Array.isArray(raw)) return [];
  // Keep the newest: the crumbs right before the error explain it.
  return raw
    .slice(-limits.maxBreadcrumbs)
    .filter(isPlainObject)
    .map((crumb) => ({
      timestamp: readTimestamp(crumb.timestamp)?.toISOString() ?? null,
      type: readString(crumb.type, 64),
      category: readString(crumb.category, 256),
      level: readString(crumb.level, 16),
      message: readString(crumb.message, limits.maxStringLength),
      data: crumb.data === undefined ? null : trimJson(crumb.data, limits.maxStringLength),
    }));
}

function readFingerprint(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const parts = value
    .slice(0, 50)
    .map((v) => (typeof v === "string" ? trimString(v, 1024) : typeof v === "number" ? String(v) : null))
    .filter((v): v is string => v !== null);
  return parts.length > 0 ? parts : null;
}

function readSdk(value: unknown): NormalizedOccurrence["sdk"] {
  if (!isPlainObject(value)) return null;
  return { name: readString(value.name, 128), version: readString(value.version, 64) };
}

function readEventIdOrFail(event: Record<string, unknown>, fallback: string | null | undefined): string {
  if (event.event_id !== undefined && event.event_id !== null) {
    const id = normalizeEventId(event.event_id);
    if (id === null) throw new IngestError("invalid_event_id", "event_id is not 32 hex digits");
    return id;
  }
  return fallback ?? randomUUID().replaceAll("-", "");
}

/**
 * Turns one Sentry event (an envelope `event` item or a legacy store body, already JSON-parsed)
 * into a NormalizedOccurrence. Lenient about every optional field, strict about the two things that
 * would corrupt storage: the payload must be an object and event_id, if present, must be an id.
 * Throws IngestError `malformed` / `invalid_event_id` (400).
 */
export function normalizeSentryEvent(input: unknown, options: NormalizeOptions = {}): NormalizedOccurrence {
  if (!isPlainObject(input)) throw new IngestError("malformed", "event payload is not a JSON object");
  const event = input;
  const limits: TrimLimits = { ...DEFAULT_TRIM_LIMITS, ...options.limits };
  const receivedAt = options.receivedAt ?? new Date();
  const exceptions = normalizeExceptionChain(event, limits);
  const user = normalizeUser(event, options.connectionIp ?? null);
  const { message, logentryTemplate } = readEventMessage(event, limits.maxStringLength);
  const time = readEventTime(event.timestamp, receivedAt, options.sentAt);

  const occurrence: NormalizedOccurrence = {
    eventId: readEventIdOrFail(event, options.fallbackEventId),
    timestamp: time.timestamp,
    level: readLevel(event.level),
    platform: readPlatform(event.platform),
    // No environment stays none (Relay's rule): shown as such, counted in the PRODUCTION bucket.
    environment: readString(event.environment, 64)?.trim() || null,
    release: readString(event.release, 256),
    serverName: readString(event.server_name, 256),
    transaction: readString(event.transaction, 512),
    logger: readString(event.logger, 256),
    message,
    logentryTemplate,
    exceptions,
    stacktrace: exceptions.length === 0 ? normalizeEventStacktrace(event, limits) : [],
    request: normalizeRequest(event, user),
    user,
    tags: readStringRecord(event.tags, limits.maxTagLength, limits.maxTagLength),
    contexts: readJsonRecord(event.contexts, limits.maxStringLength),
    breadcrumbs: readBreadcrumbs(event, limits),
    sdk: readSdk(event.sdk),
    extra: readJsonRecord(event.extra, limits.maxStringLength),
    handled: deriveHandled(exceptions),
    fingerprint: readFingerprint(event.fingerprint),
  };
  return withDetail(occurrence, event, limits, time);
}

/** The fields only the detail screen reads, set only when the SDK sent them (most events carry few). */
function withDetail(occurrence: NormalizedOccurrence, event: Record<string, unknown>, limits: TrimLimits, time: ReturnType<typeof readEventTime>) {
  const culprit = readString(event.culprit, 512);
  const dist = readString(event.dist, 64);
  const modules = normalizeModules(event.modules);
  const threads = normalizeThreads(event, limits);
  const debugImages = normalizeDebugImages(event);
  if (culprit) occurrence.culprit = culprit;
  if (dist) occurrence.dist = dist;
  if (Object.keys(modules).length > 0) occurrence.modules = modules;
  if (threads.length > 0) occurrence.threads = threads;
  if (debugImages.length > 0) occurrence.debugImages = debugImages;
  if (time.original) occurrence.originalTimestamp = time.original;
  if (time.adjustment && time.adjustment !== "missing") occurrence.timestampAdjustment = time.adjustment;
  return occurrence;
}
