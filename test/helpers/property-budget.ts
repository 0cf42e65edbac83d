/**
 * How much work a property test does and how long it may take. The case count comes from
 * PROPERTY_RUNS (default: the full count CI runs), and the timeout grows with it, so a busy machine
 * makes the test slower, never red. The slowest property (10,000 round-trips) took 4 s on an idle
 * two-core machine, 43–49 s with other test runs beside it, and 115 s at a load average of 30.
 * The timeout is only there to stop a hang.
 */
export const FULL_PROPERTY_RUNS = 10_000;
/** ≈ 4× the slowest property's worst cost per case seen (11.5 ms; 0.4 ms on an idle machine). */
export const MS_PER_CASE = 50;
/** Below this a timeout would measure start-up noise rather than the cases. */
export const MIN_TIMEOUT_MS = 30_000;

export function propertyRuns(value: string | undefined): number {
  if (value === undefined || value === "") return FULL_PROPERTY_RUNS;
  const runs = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(runs) || runs < 1) {
    throw new Error(`PROPERTY_RUNS must be a positive whole number of cases (got ${JSON.stringify(value)})`);
  }
  return runs;
}

export function propertyTimeoutMs(runs: number): number {
  return Math.max(MIN_TIMEOUT_MS, runs * MS_PER_CASE);
}
