/** Milliseconds of `runs` sequential calls after `warmups` untimed ones, sorted ascending. */
export async function timeRuns(run: () => Promise<unknown>, { warmups, runs }: { warmups: number; runs: number }): Promise<number[]> {
  for (let i = 0; i < warmups; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

export interface Percentiles {
  p50: number;
  p95: number;
  max: number;
}

/** Nearest-rank percentiles of ascending-sorted times, rounded to 0.1 ms. */
export function percentiles(sorted: number[]): Percentiles {
  if (sorted.length === 0) throw new Error("percentiles of no measurement");
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), max: Math.round(sorted.at(-1)! * 10) / 10 };
}
