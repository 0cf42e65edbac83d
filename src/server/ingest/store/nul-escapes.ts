/**
 * PostgreSQL text cannot hold U+0000, so one `\u0000` in an event's message or tags would fail
 * the whole batch, its neighbours included, on every retry. The escape (not an escaped backslash
 * followed by "u0000") becomes U+FFFD, as an undecodable character would.
 */
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;
export const withoutNulEscapes = (json: string) => (json.includes("\\u0000") ? json.replace(NUL_ESCAPE, "$1\ufffd") : json);
