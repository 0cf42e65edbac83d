import { describe, expect, it } from "vitest";
import { FULL_PROPERTY_RUNS, MIN_TIMEOUT_MS, propertyRuns, propertyTimeoutMs } from "./property-budget";

describe("property test budget", () => {
  it("runs the full count unless PROPERTY_RUNS says otherwise", () => {
    expect(propertyRuns(undefined)).toBe(FULL_PROPERTY_RUNS);
    expect(propertyRuns("")).toBe(FULL_PROPERTY_RUNS);
    expect(propertyRuns("250")).toBe(250);
    expect(propertyRuns("100000")).toBe(100_000);
  });

  it("rejects a count that is not a positive whole number, naming the variable", () => {
    for (const bad of ["0", "-5", "1e4", "12.5", "abc", " 100"]) {
      expect(() => propertyRuns(bad)).toThrow(/PROPERTY_RUNS must be a positive whole number/);
    }
  });

  it("gives the work a timeout proportional to its case count", () => {
    expect(propertyTimeoutMs(100)).toBe(MIN_TIMEOUT_MS);
    expect(propertyTimeoutMs(10_000)).toBe(500_000);
    expect(propertyTimeoutMs(100_000)).toBe(10 * propertyTimeoutMs(10_000));
  });
});
