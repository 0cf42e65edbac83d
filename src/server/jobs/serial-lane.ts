/** How a lane merges work that is still waiting: entries of one key become one run. */
export interface Coalescing<P> {
  key: (payload: P) => string;
  merge: (waiting: P, next: P) => P;
}

interface Entry<P> {
  key: string | null;
  payload: P;
  settle: { resolve: () => void; reject: (error: unknown) => void }[];
}

/**
 * Runs its work one piece at a time, in the order given. The job queue runs the jobs it claims
 * side by side; work that would only queue up inside the database (evaluations of one project's
 * rules lock the same storm-guard rows) waits here instead, without holding a pooled connection
 * that ingest's next batch needs. With `coalescing`, work submitted while another piece runs is
 * merged with waiting work of the same key, so a backlog of small jobs becomes a few runs: each
 * submitter's promise settles with the run its work went into.
 */
export function serialLane<P>(run: (payload: P) => Promise<void>, coalescing?: Coalescing<P>): (payload: P) => Promise<void> {
  const queue: Entry<P>[] = [];
  const waitingByKey = new Map<string, Entry<P>>();
  let running = false;

  async function drain() {
    running = true;
    for (let entry = queue.shift(); entry; entry = queue.shift()) {
      if (entry.key !== null) waitingByKey.delete(entry.key);
      try {
        await run(entry.payload);
        for (const { resolve } of entry.settle) resolve();
      } catch (error) {
        for (const { reject } of entry.settle) reject(error);
      }
    }
    running = false;
  }

  return (payload) =>
    new Promise<void>((resolve, reject) => {
      const key = coalescing ? coalescing.key(payload) : null;
      const waiting = key === null ? undefined : waitingByKey.get(key);
      if (waiting && coalescing) {
        waiting.payload = coalescing.merge(waiting.payload, payload);
        waiting.settle.push({ resolve, reject });
      } else {
        const entry: Entry<P> = { key, payload, settle: [{ resolve, reject }] };
        queue.push(entry);
        if (key !== null) waitingByKey.set(key, entry);
      }
      if (!running) void drain();
    });
}
