/**
 * Loaded into a server under test with `node --import` (never by the product): measures how long
 * the event loop was held at a time, and writes one JSON line to stderr when the process exits,
 * `{"eventLoopDelay":{"maxMs":…,"p99Ms":…}}`, for a benchmark to read from the server's output.
 * SIGUSR2 starts the measurement again.
 */
import { writeSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
// The benchmark signals when its load starts: start-up (module loading, migrations) is not measured.
process.on("SIGUSR2", () => histogram.reset());
process.on("exit", () => {
  const ms = (ns) => Math.round(ns / 1e5) / 10;
  writeSync(2, `\n${JSON.stringify({ eventLoopDelay: { maxMs: ms(histogram.max), p99Ms: ms(histogram.percentile(99)) } })}\n`);
});
