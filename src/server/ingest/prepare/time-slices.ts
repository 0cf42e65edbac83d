import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Work written as a generator that yields between its steps (one envelope item, one event): the
 * same code runs at once where nothing else waits (a worker thread, tests), or in slices on the
 * main thread, which also serves every other tenant's requests.
 */
export type Steps<T> = Generator<void, T, void>;

/**
 * How long the main thread works on one body before it lets other requests have a turn. A step
 * (parsing, normalising or preparing one event of at most INGEST_MAX_EVENT_BYTES) takes a few
 * milliseconds, so no request waits much longer than this for a large body (issue 31: a 19 MB
 * envelope held the loop 1.0–1.4 s).
 */
export const SLICE_MS = 10;

/** Runs every step now. */
export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * Runs the steps, handing the event loop a turn (setImmediate: after pending I/O) whenever a
 * slice has lasted SLICE_MS. The usual body, one small event, finishes inside its first slice
 * and never waits for a turn.
 */
export async function runInSlices<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}
