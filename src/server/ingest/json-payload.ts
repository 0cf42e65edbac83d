import type { IngestFailure } from "./ingest-error";

export type JsonResult = { ok: true; value: unknown } | { ok: false; error: IngestFailure };

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Highest `{`/`[` nesting in a JSON text, stopping as soon as `limit` is passed. A flat byte scan
 * (strings skipped, escapes honoured) so that 100,000-deep input is refused before JSON.parse and
 * before any recursive walk downstream could hit a RangeError. Works on invalid JSON too: it only
 * bounds the depth, JSON.parse still judges validity.
 */
export function exceedsJsonDepth(bytes: Uint8Array, limit: number, start = 0, end = bytes.length): boolean {
  let depth = 0;
  let inString = false;
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
  }
  return false;
}

// `fatal` makes invalid UTF-8 an error instead of silently becoming U+FFFD.
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decodes strict UTF-8; null when the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Parses one JSON document (an envelope line, an item payload, a store body) with the depth guard
 * first, then strict UTF-8, then JSON.parse. Never throws.
 */
export function parseJsonBytes(bytes: Uint8Array, maxDepth: number, what = "JSON"): JsonResult {
  if (exceedsJsonDepth(bytes, maxDepth)) {
    return { ok: false, error: { code: "too_deep", message: `${what} nests deeper than ${maxDepth}` } };
  }
  const text = decodeUtf8(bytes);
  if (text === null) return { ok: false, error: { code: "malformed", message: `${what} is not valid UTF-8` } };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: { code: "malformed", message: `${what} is not valid JSON` } };
  }
}
