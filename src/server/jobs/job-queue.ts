/** A JSON value: what a job payload may hold, so it survives the round trip through the database. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Background work (alert delivery, digests, partition maintenance, retention) through one
 * database-backed queue shared by every replica (e.g. `pg-boss` on the same PostgreSQL).
 *
 * Contract:
 * - `enqueue` resolves once the job is durably stored, and returns its id. With a `singletonKey`,
 *   a second job of the same name and key waiting to run is not added (null is returned), so
 *   "issue regressed" facts handed over twice make one alert.
 * - At most one runner executes a given job at a time across all replicas; a job whose runner
 *   died is retried after its lease expires, so handlers must be idempotent.
 * - Nothing on the ingest hot path awaits a job's completion; the batch writer only enqueues,
 *   after its commit.
 * - `close` stops taking new work and waits for running handlers (graceful shutdown).
 */
export interface JobQueue {
  enqueue(name: string, payload: JsonValue, options?: { singletonKey?: string; startAfter?: Date }): Promise<string | null>;
  work(name: string, handler: (payload: JsonValue) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}
