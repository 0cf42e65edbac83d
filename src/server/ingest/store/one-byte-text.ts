/**
 * Text on its way to PostgreSQL as a query parameter, kept in V8's one-byte representation.
 *
 * V8 stores a string one byte per character while every character is Latin-1, else two bytes per
 * character; a string built from parts (a join, a template) is two-byte if any part is. The driver
 * encodes each parameter to UTF-8, and for a two-byte string that is about fifteen times slower
 * (10 µs instead of 0.7 µs for a 6 KB document on the benchmark machine). A batch joins many
 * events' texts into one parameter, so a single "…" or "ü" beyond Latin-1 in one event used to make
 * the whole batch's parameter two-byte.
 */
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;
const BEYOND_LATIN1_ALL = /[^\u0000-\u00ff]/g;

/** Whether `text` holds a character beyond Latin-1 (immediate for a one-byte string). */
export const isTwoByte = (text: string) => BEYOND_LATIN1.test(text);

const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * JSON text with every character beyond Latin-1 written as a `\u` escape (the same JSON value: such
 * characters only occur inside strings, and a surrogate pair becomes a pair of escapes), as a
 * one-byte string. For JSON that PostgreSQL parses (json_to_recordset), not for stored text: the
 * stored event document keeps the characters as sent (batch-commit.ts sends wide ones apart).
 */
export function oneByteJson(json: string): string {
  if (!isTwoByte(json)) return json;
  // replace() keeps the two-byte representation; a round trip through Latin-1 bytes makes it one-byte.
  return Buffer.from(json.replace(BEYOND_LATIN1_ALL, escape), "latin1").toString("latin1");
}
