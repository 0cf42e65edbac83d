/** A bounded ingest load generator for the chaos tests: unique event ids, every answer recorded. */
export interface LoadResult {
  acked: Set<string>;
  statuses: Map<number, number>;
  networkErrors: number;
  /** Time of each 2xx answer, for measuring recovery. */
  ackTimes: number[];
}

export function envelopeFor(eventId: string, n: number) {
  return `${JSON.stringify({ event_id: eventId })}\n{"type":"event"}\n${JSON.stringify({
    event_id: eventId,
    level: "error",
    environment: "production",
    exception: {
      values: [
        {
          type: "ChaosError",
          value: `request ${n}`,
          stacktrace: { frames: [{ function: `handler${n % 7}`, filename: "/app/chaos.js", lineno: 1, in_app: true }] },
        },
      ],
    },
  })}\n`;
}

export function runIngestLoad(target: () => string, options: { connections: number; durationMs: number }) {
  const result: LoadResult = { acked: new Set(), statuses: new Map(), networkErrors: 0, ackTimes: [] };
  const deadline = Date.now() + options.durationMs;
  let counter = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      const eventId = crypto.randomUUID().replaceAll("-", "");
      const n = counter++;
      try {
        const response = await fetch(target(), { method: "POST", body: envelopeFor(eventId, n), signal: AbortSignal.timeout(15_000) });
        await response.arrayBuffer();
        result.statuses.set(response.status, (result.statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 200 && response.status < 300) {
          result.acked.add(eventId);
          result.ackTimes.push(Date.now());
        } else if (response.status === 503) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } catch {
        result.networkErrors += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  return Promise.all(Array.from({ length: options.connections }, worker)).then(() => result);
}
