import { normalizeEventId } from "../normalize/event-id";
import type { IngestFailure } from "../http/ingest-error";
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from "../http/ingest-limits";
import { parseJsonBytes } from "../http/json-payload";
import { isPlainObject } from "../normalize/value-coercion";
import { runAtOnce, type Steps } from "../prepare/time-slices";

/** Item types Sentry SDKs send today; anything else is kept but marked skipped (never fatal). */
export const KNOWN_ITEM_TYPES = new Set([
  "event",
  "transaction",
  "attachment",
  "session",
  "sessions",
  "client_report",
  "user_report",
  "feedback",
  "check_in",
  "log",
  "span",
  "otel_log",
  "profile",
  "profile_chunk",
  "replay_event",
  "replay_recording",
  "replay_video",
  "statsd",
  "metric_buckets",
  "security",
  "nel",
]);

/** Items whose payload must be one valid JSON object, else the whole envelope is malformed. */
export const EVENT_LIKE_ITEM_TYPES = new Set(["event", "transaction"]);
/** Small JSON items decoded best-effort: a bad one is kept without `json`, never fatal. */
export const LENIENT_JSON_ITEM_TYPES = new Set(["session", "sessions", "client_report", "user_report", "feedback", "check_in"]);

export interface EnvelopeHeader {
  /** Canonical 32-hex id, or null when the header has none (sessions, client reports). */
  eventId: string | null;
  dsn: string | null;
  sentAt: string | null;
  /** The header object as sent. */
  raw: Record<string, unknown>;
}

export interface EnvelopeItem {
  type: string;
  /** The item header object as sent (type, length, content_type, filename, ...). */
  headers: Record<string, unknown>;
  /** Exact payload bytes (a view into the body). */
  payload: Buffer;
  /** Parsed payload for JSON item types; undefined for attachments, unknown types, bad lenient items. */
  json?: unknown;
  /** True for unknown item types: accepted, but nothing downstream should act on them. */
  skipped: boolean;
  /**
   * A JSON item other than an event over the per-item limit (maxEventBytes): dropped unparsed,
   * as Relay drops an oversized item, and counted as a `too_large` outcome; never fatal.
   */
  oversized?: boolean;
}

export interface Envelope {
  header: EnvelopeHeader;
  items: EnvelopeItem[];
}

export type EnvelopeLimits = Pick<IngestLimits, "maxItems" | "maxEventBytes" | "maxJsonDepth">;
export type EnvelopeParseResult = { ok: true; envelope: Envelope } | { ok: false; error: IngestFailure };

const NEWLINE = 0x0a;

class EnvelopeSyntaxError {
  constructor(readonly failure: IngestFailure) {}
}
function bail(code: IngestFailure["code"], message: string): never {
  throw new EnvelopeSyntaxError({ code, message });
}

function parseObjectLine(bytes: Buffer, maxDepth: number, what: string): Record<string, unknown> {
  const result = parseJsonBytes(bytes, maxDepth, what);
  if (!result.ok) throw new EnvelopeSyntaxError(result.error);
  if (!isPlainObject(result.value)) bail("malformed", `${what} is not a JSON object`);
  return result.value;
}

function parseHeader(line: Buffer, limits: EnvelopeLimits): EnvelopeHeader {
  const raw = parseObjectLine(line, limits.maxJsonDepth, "envelope header");
  let eventId: string | null = null;
  if (raw.event_id !== undefined && raw.event_id !== null) {
    eventId = normalizeEventId(raw.event_id);
    if (eventId === null) bail("invalid_event_id", "envelope header event_id is not 32 hex digits");
  }
  return {
    eventId,
    dsn: typeof raw.dsn === "string" ? raw.dsn : null,
    sentAt: typeof raw.sent_at === "string" ? raw.sent_at : null,
    raw,
  };
}

function explicitLength(headers: Record<string, unknown>): number | null {
  const length = headers.length;
  if (length === undefined || length === null) return null;
  if (typeof length !== "number" || !Number.isSafeInteger(length) || length < 0) {
    bail("malformed", "item length must be a non-negative integer");
  }
  return length;
}

/** Whether the item's JSON is never parsed because of its size (see EnvelopeItem.oversized). */
const isOversized = (type: string, payload: Buffer, limits: EnvelopeLimits) => LENIENT_JSON_ITEM_TYPES.has(type) && payload.length > limits.maxEventBytes;

function decodePayload(type: string, payload: Buffer, limits: EnvelopeLimits): unknown {
  if (EVENT_LIKE_ITEM_TYPES.has(type)) {
    // Size before parse: a 10 MiB event is refused without paying for JSON.parse (battery A4).
    // The whole envelope is refused (413), not the item alone: a 2xx must mean every event is stored.
    if (payload.length > limits.maxEventBytes) bail("too_large", `${type} item exceeds ${limits.maxEventBytes} bytes`);
    return parseObjectLine(payload, limits.maxJsonDepth, `${type} item`);
  }
  if (LENIENT_JSON_ITEM_TYPES.has(type) && !isOversized(type, payload, limits)) {
    const result = parseJsonBytes(payload, limits.maxJsonDepth);
    return result.ok ? result.value : undefined;
  }
  return undefined;
}

/** Yields after each item whose JSON it parsed: a 1 MiB item costs a few milliseconds, a body of twenty of them too much at once. */
function* parseItems(body: Buffer, start: number, limits: EnvelopeLimits): Steps<EnvelopeItem[]> {
  const items: EnvelopeItem[] = [];
  let pos = start;
  while (pos < body.length) {
    const lineEnd = body.indexOf(NEWLINE, pos);
    const headerEnd = lineEnd === -1 ? body.length : lineEnd;
    // Tolerate blank lines between items (extra trailing newlines are common).
    if (headerEnd === pos || (headerEnd === pos + 1 && body[pos] === 0x0d)) {
      pos = headerEnd + 1;
      continue;
    }
    // Counted before parsing the header so 10,000 tiny items stop at item maxItems + 1.
    if (items.length >= limits.maxItems) bail("too_many_items", `envelope has more than ${limits.maxItems} items`);

    const headers = parseObjectLine(body.subarray(pos, headerEnd), limits.maxJsonDepth, "item header");
    const type = headers.type;
    if (typeof type !== "string" || type === "") bail("malformed", "item header has no type");
    const length = explicitLength(headers);

    const payloadStart = lineEnd === -1 ? body.length : lineEnd + 1;
    let payloadEnd: number;
    if (length !== null) {
      // `length` counts BYTES, not characters; honour it exactly, then expect `\n` or EOF.
      payloadEnd = payloadStart + length;
      if (payloadEnd > body.length) bail("malformed", "item payload is shorter than its length");
      if (payloadEnd < body.length && body[payloadEnd] !== NEWLINE) {
        bail("malformed", "item payload is not followed by a newline");
      }
    } else {
      const next = body.indexOf(NEWLINE, payloadStart);
      payloadEnd = next === -1 ? body.length : next;
    }
    pos = payloadEnd + 1;

    const payload = body.subarray(payloadStart, payloadEnd);
    const known = KNOWN_ITEM_TYPES.has(type);
    const json = known ? decodePayload(type, payload, limits) : undefined;
    const oversized = known && isOversized(type, payload, limits);
    items.push({ type, headers, payload, ...(json === undefined ? {} : { json }), skipped: !known, ...(oversized ? { oversized } : {}) });
    if (json !== undefined) yield;
  }
  return items;
}

/**
 * Parses a decompressed Sentry envelope (docs/ingest-protocol.md §1). Never throws: every failure,
 * including ones we did not foresee, comes back as a typed `{ ok: false, error }` so the HTTP layer
 * always answers 4xx instead of 500 (battery A1/A2).
 */
export function parseEnvelope(body: Buffer, limits: Partial<EnvelopeLimits> = {}): EnvelopeParseResult {
  return runAtOnce(envelopeSteps(body, limits));
}

/** parseEnvelope in steps, one per parsed JSON item (prepare/time-slices.ts). */
export function* envelopeSteps(body: Buffer, limits: Partial<EnvelopeLimits> = {}): Steps<EnvelopeParseResult> {
  const effective: EnvelopeLimits = {
    maxItems: limits.maxItems ?? DEFAULT_INGEST_LIMITS.maxItems,
    maxEventBytes: limits.maxEventBytes ?? DEFAULT_INGEST_LIMITS.maxEventBytes,
    maxJsonDepth: limits.maxJsonDepth ?? DEFAULT_INGEST_LIMITS.maxJsonDepth,
  };
  try {
    if (body.length === 0) bail("malformed", "empty envelope");
    const headerEnd = body.indexOf(NEWLINE);
    const headerLine = body.subarray(0, headerEnd === -1 ? body.length : headerEnd);
    const header = parseHeader(headerLine, effective);
    const items = headerEnd === -1 ? [] : yield* parseItems(body, headerEnd + 1, effective);
    return { ok: true, envelope: { header, items } };
  } catch (error) {
    if (error instanceof EnvelopeSyntaxError) return { ok: false, error: error.failure };
    return { ok: false, error: { code: "malformed", message: "envelope could not be parsed" } };
  }
}
