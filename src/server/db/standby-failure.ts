/** postgres.js's own connection failures, and Node's socket errors, by `code`. */
const CONNECTION_FAILURES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
]);

/**
 * A read the primary can answer instead: the standby is unreachable, going down or starting
 * (SQLSTATE class 08, 57P01-57P03), full (53300), or cancelled the read because replay needed
 * its rows (40001, "conflict with recovery"). Other errors (a bad query) are the read's own and
 * would fail on the primary too.
 */
export function isStandbyFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  return CONNECTION_FAILURES.has(code) || code.startsWith("08") || ["57P01", "57P02", "57P03", "53300", "40001"].includes(code);
}
