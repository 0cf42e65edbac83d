/**
 * JSON text on its way into PostgreSQL, as JSON.stringify wrote it. Two of its escapes name text
 * PostgreSQL refuses, so one of them in an event would fail the statement of the whole batch, other
 * tenants' events included, on every retry:
 * - `\u0000`: text cannot hold U+0000;
 * - `\ud800`…`\udfff`: JSON.stringify writes a surrogate pair as the character itself and escapes
 *   only a LONE surrogate (half a pair, sent by broken or hostile clients), which json refuses to
 *   turn into text ("invalid input syntax for type json").
 * Each such escape (not an escaped backslash followed by "u0000") becomes U+FFFD, as an
 * undecodable character would. The common case, no such escape, is one substring scan.
 */
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;
const UNSTORABLE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g;

export const withoutNulEscapes = (json: string) => (json.includes("\\u0000") ? json.replace(NUL_ESCAPE, "$1\ufffd") : json);

/** For JSON kept as text (the stored event document): U+0000 is fine there, a lone surrogate is not. */
export const withoutLoneSurrogateEscapes = (json: string) => (json.includes("\\ud") ? json.replace(LONE_SURROGATE_ESCAPE, "$1\ufffd") : json);

/** For JSON that PostgreSQL reads into text columns (json_to_recordset): neither escape may remain. */
export const storableJson = (json: string) => (json.includes("\\u0000") || json.includes("\\ud") ? json.replace(UNSTORABLE_ESCAPE, "$1\ufffd") : json);

/**
 * A parsed JSON value PostgreSQL can store (as jsonb or text): returned as it is unless its JSON
 * holds one of the escapes above, else rebuilt from the cleaned text (keys included).
 */
export function storableJsonValue<T>(value: T): T {
  const json = JSON.stringify(value);
  const cleaned = storableJson(json);
  return cleaned === json ? value : (JSON.parse(cleaned) as T);
}
