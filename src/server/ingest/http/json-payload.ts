import type { IngestFailure } from "./ingest-error";

export type JsonResult = { ok: true; value: unknown } | { ok: false; error: IngestFailure };

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether a JSON text nests `{`/`[` deeper than `limit`, stopping as soon as it does. A flat scan,
 * so that 100,000-deep input is refused before JSON.parse and before any recursive walk
 * downstream could hit a RangeError. Works on invalid JSON too: it only bounds the depth,
 * JSON.parse still judges validity.
 *
 * Most of an event's text is inside strings: they are jumped over with indexOf (a native scan)
 * instead of being walked character by character, which made this check cost more than half of
 * JSON.parse itself.
 */
export function exceedsJsonDepth(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return false; // unterminated: nothing after it can nest deeper
    } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** Index of the quote closing the string opened at `open` (one preceded by an even run of backslashes), or -1. */
function closingQuote(text: string, open: number): number {
  let quote = open;
  for (;;) {
    quote = text.indexOf('"', quote + 1);
    if (quote < 0) return -1;
    let before = quote - 1;
    while (text.charCodeAt(before) === BACKSLASH) before--;
    if ((quote - 1 - before) % 2 === 0) return quote;
  }
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
 * Parses one JSON document (an envelope line, an item payload, a store body): strict UTF-8, then
 * the depth guard, then JSON.parse. Never throws.
 */
export function parseJsonBytes(bytes: Uint8Array, maxDepth: number, what = "JSON"): JsonResult {
  const text = decodeUtf8(bytes);
  if (text === null) return { ok: false, error: { code: "malformed", message: `${what} is not valid UTF-8` } };
  if (exceedsJsonDepth(text, maxDepth)) {
    return { ok: false, error: { code: "too_deep", message: `${what} nests deeper than ${maxDepth}` } };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: { code: "malformed", message: `${what} is not valid JSON` } };
  }
}
