/**
 * How much work a property test does and how long it may take. The case count comes from
 * PROPERTY_RUNS (default: the full count CI runs), and the timeout grows with it, so a busy machine
 * makes the test slower, never red: 10,000 round-trip cases take ≈ 4 s on an idle two-core machine
 * and took 43 s on one shared with seven test runs.
 */
export const FULL_PROPERTY_RUNS = 10_000;
/** ≈ 25× the slowest property's measured cost per case on an idle machine (≈ 0.4 ms). */
export const MS_PER_CASE = 10;
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
