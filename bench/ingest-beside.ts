/**
 * Envelopes sent one after another on a few connections to one project's DSN, timing each: the
 * ingest that goes on beside a long job in bench:deletion and bench:retention, whose latency
 * those benchmarks report before and during the job.
 */
export interface IngestBeside {
  /** Sends until `running()` turns false, on `concurrency` connections, adding each latency (ms). */
  while(running: () => boolean, latencies: number[]): Promise<void>;
}

export function ingestBeside(ingestUrl: string, concurrency = 4): IngestBeside {
  let sent = 0;
  const one = async (latencies: number[]) => {
    const id = crypto.randomUUID().replaceAll("-", "");
    const body = `{"event_id":"${id}"}\n{"type":"event"}\n{"event_id":"${id}","level":"error","exception":{"values":[{"type":"BenchError","value":"n${sent++ % 50}"}]}}\n`;
    const started = performance.now();
    const response = await fetch(ingestUrl, { method: "POST", body });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`ingest answered ${response.status}`);
    latencies.push(performance.now() - started);
  };
  return {
    while: async (running, latencies) => {
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (running()) await one(latencies);
        }),
      );
    },
  };
}

/** Nearest-rank percentile (q in 0..1) of the latencies, rounded to 0.1 ms. */
export function latencyAt(latencies: number[], q: number): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  if (sorted.length === 0) throw new Error("nothing was measured");
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] * 10) / 10;
}
