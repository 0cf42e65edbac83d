/**
 * Helpers for values that come from SDKs (messages, frames, tags, headers, URLs, …). Anyone holding
 * a DSN can send them, so they are attacker-controlled: they are only ever rendered as React text,
 * and the helpers below take care of what React's escaping does not cover.
 */

// CSI (ESC [ … final byte, or the 8-bit CSI), OSC (ESC ] … BEL or ESC \), and two-byte escapes.
const ANSI_ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]/g;
// Other C0 controls (tab, newline and carriage return are kept) and DEL.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
// Bidirectional overrides can make a line read differently from what it is ("Trojan Source").
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Terminal colour codes are common in log messages; shown raw they are noise, so they are
 * removed. Any other control character becomes its visible Unicode "control picture" (␛, ␀, …)
 * rather than silently disappearing.
 */
export function cleanText(value: string): string {
  return value
    .replace(ANSI_ESCAPE, "")
    .replace(CONTROL, (char) => (char === "\u007f" ? "\u2421" : String.fromCharCode(0x2400 + char.charCodeAt(0))))
    .replace(BIDI_CONTROL, "");
}

/** Any JSON-ish value as one line of text (strings as they are, the rest as compact JSON). */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return cleanText(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  try {
    return cleanText(JSON.stringify(value) ?? "");
  } catch {
    return "[unserializable]";
  }
}

/**
 * The URL to put in an href, or null when the value must stay plain text: only absolute http(s)
 * URLs qualify, so `javascript:`, `data:`, `vbscript:` and relative values are never links. The
 * parsed form is returned, so what the browser follows is exactly what was checked.
 */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
}

/**
 * A value as indented JSON, for raw views. JSON already escapes control characters (ANSI codes read
 * as `\u001b[31m`); bidirectional overrides are escaped too, so the text shows what was sent.
 */
export function prettyJson(value: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(value, null, 2) ?? "null";
  } catch {
    return "[unserializable]";
  }
  return json.replace(BIDI_CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
