/** The SQLSTATE of a failed statement: postgres.js and PGlite put it on the error, drizzle on its cause. */
export function sqlStateOf(error: unknown): string | null {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  const state = typeof code === "string" ? code : typeof cause?.code === "string" ? cause.code : null;
  // Driver errors without a server answer carry codes too ("ECONNREFUSED", "CONNECTION_CLOSED").
  return state !== null && /^[0-9A-Z]{5}$/.test(state) ? state : null;
}

/**
 * SQLSTATE classes that mean "this statement's data cannot be stored", so the same statement would
 * fail again on every retry while a statement without the offending row would succeed: 21
 * cardinality violation, 22 data exception (a value out of range, invalid json or text), 23
 * integrity constraint violation (a foreign key to a project deleted meanwhile, a check), 54
 * program limit exceeded (a value too large for an index row).
 */
const DATA_ERROR_CLASSES = new Set(["21", "22", "23", "54"]);

/**
 * Whether a batch statement failed because of what it carried rather than because the database is
 * unavailable. Anything else — no SQLSTATE at all (connection refused, reset, timed out), 08
 * connection exceptions, 53 insufficient resources, 57 operator intervention (shutdown, restart) —
 * is an outage: the whole batch answers 503 with Retry-After and is never split, so an outage does
 * not multiply the statements sent to a database that is struggling.
 */
export function isDataError(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== null && DATA_ERROR_CLASSES.has(state.slice(0, 2));
}

/** A deadlock or serialization victim: nothing was written, and one more attempt is safe. */
export function isConcurrencyVictim(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state === "40P01" || state === "40001";
}
