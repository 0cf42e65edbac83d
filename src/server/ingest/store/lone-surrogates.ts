/**
 * JSON.stringify writes a lone UTF-16 surrogate as a `\udXXX` escape (lower-case hex; a paired
 * surrogate stays a raw character), and PostgreSQL refuses such an escape wherever it decodes the
 * JSON (json_to_recordset, jsonb): one would fail its whole batch, neighbours included, on every
 * retry. The escape (not an escaped backslash followed by "ud…") becomes U+FFFD, as in nul-escapes.ts.
 */
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;
export const withoutLoneSurrogateEscapes = (json: string) => (json.includes("\\ud") ? json.replace(LONE_SURROGATE_ESCAPE, "$1\ufffd") : json);
