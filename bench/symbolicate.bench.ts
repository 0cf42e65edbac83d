/**
 * Issue 33: what symbolicating a minified JavaScript stack costs. A real esbuild build of generated
 * modules (≈ 20 MB of source map at the default size, sources included) and a 50-frame stack in it,
 * symbolicated through symbolicate() (src/server/sourcemaps/):
 *   - cold: nothing of the map is in memory; its index (built on the worker as an upload's assembly
 *     builds it) is read from the store: the header, the pages of the 50 frames, their source blocks;
 *   - warm: the same event again, the parts in the main thread's cache;
 *   - the main thread's event-loop delay (perf_hooks.monitorEventLoopDelay) during the cold runs;
 *   - for comparison, cold without an index (a map uploaded before indexes): the whole map is read,
 *     moved to the worker thread, parsed and looked up there.
 * Targets (here, never in tests): cold < 200 ms, warm < 5 ms, event-loop delay < 20 ms.
 *   npm run bench:symbolicate [-- --modules 3400 --cold 3 --warm 50] [-- --write]
 *   npm run bench:symbolicate -- --smoke      (a small map, a few runs; correctness only, no targets)
 */
import { cpus, loadavg } from "node:os";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { createLogger } from "../src/server/logger";
import { normalizeSentryEvent } from "../src/server/ingest/normalize/event.normalizer";
import { IndexedMapLookup } from "../src/server/sourcemaps/indexed-map-lookup";
import { SourceMapWorkers } from "../src/server/sourcemaps/source-map-workers";
import { symbolicate } from "../src/server/sourcemaps/symbolicate";
import { buildBundle } from "../test/helpers/esbuild-bundle";
import { generatedSources, throwSites } from "./generated-app";
import { artifactOf, MemorySourceMapStore, withIndex } from "../test/helpers/memory-source-map-store";
import { parseBenchArgs } from "./bench-args";
import { appendResults, currentCommit, machineDescription } from "./report";
import { percentiles } from "./timing";

const args = parseBenchArgs(process.argv.slice(2));
const MODULES = args.number("--modules", args.smoke ? 60 : 3400);
const COLD_RUNS = args.number("--cold", args.smoke ? 2 : 3);
const WARM_RUNS = args.number("--warm", args.smoke ? 5 : 50);
const FRAMES = 50;
const TARGETS = { coldMs: 200, warmMs: 5, loopDelayMs: 20 };
const PROJECT = "5e0f3c1a-7b2d-4c8e-9a1f-2b3c4d5e6f70";
const SCRIPT_URL = "https://cdn.example/assets/app.js";
const DEBUG_ID = "7a3d9e4f-1b2c-4d5e-8f9a-0b1c2d3e4f5a";

console.log(`bench:symbolicate: building ${MODULES} modules with esbuild…`);
const built = performance.now();
const bundle = await buildBundle(generatedSources(MODULES), "src/index.ts");
const mapBytes = Buffer.byteLength(bundle.map);
console.log(
  `built in ${Math.round(performance.now() - built)} ms: ${(bundle.code.length / 2 ** 20).toFixed(1)} MB of code, ${(mapBytes / 2 ** 20).toFixed(1)} MB of map`,
);

// 50 frames at 50 throw sites spread over the bundle (each a distinct position in the one minified line).
const sites = throwSites(bundle.code);
if (sites.length < FRAMES) throw new Error(`only ${sites.length} throw sites in the bundle`);
const frames = Array.from({ length: FRAMES }, (_, i) => ({
  filename: SCRIPT_URL,
  function: "x",
  ...sites[Math.floor((i * sites.length) / FRAMES)],
  in_app: true,
}));
const event = normalizeSentryEvent({
  event_id: "0123456789abcdef0123456789abcdef",
  platform: "javascript",
  exception: { values: [{ type: "Error", value: "too large", stacktrace: { frames } }] },
  debug_meta: { images: [{ type: "sourcemap", code_file: SCRIPT_URL, debug_id: DEBUG_ID }] },
});

const workers = new SourceMapWorkers(createLogger("error"));
// Start the worker (its TypeScript loader) and run the index's code on another map first: a cold
// map, not a cold process (V8 optimizes the decoder only once it has run for a while).
const warmup = await buildBundle(generatedSources(args.smoke ? 5 : 100), "src/index.ts");
const warmupIndex = await workers.index("warm-up", async () => ({ kind: "json", bytes: new Uint8Array(Buffer.from(warmup.map)) }));
if (warmupIndex.status !== "indexed") throw new Error(warmupIndex.reason);
const warmupStore = new MemorySourceMapStore();
warmupStore.addDebugId(PROJECT, DEBUG_ID, { sourceMap: withIndex(artifactOf(warmup.map), warmupIndex.parts) });
await symbolicate(event, PROJECT, warmupStore, new IndexedMapLookup(workers));

// The index, built as an upload's assembly builds it (on the worker), off the measured runs.
const indexing = performance.now();
const build = await workers.index("bench-index", async () => ({ kind: "json", bytes: new Uint8Array(Buffer.from(bundle.map)) }));
if (build.status !== "indexed") throw new Error(`the map was not indexed: ${build.reason}`);
const indexParts = build.parts;
const indexBytes = indexParts.reduce((sum, part) => sum + part.byteLength, 0);
console.log(`indexed in ${Math.round(performance.now() - indexing)} ms: ${build.parts.length} parts, ${(indexBytes / 2 ** 20).toFixed(1)} MB`);

/**
 * A store holding the map under the debug id, with its index unless `indexed` is false; `variant`
 * changes its bytes (and SHA-1) so that each cold run starts from nothing.
 */
function storeWith(variant: number, indexed = true) {
  const store = new MemorySourceMapStore();
  const file = artifactOf(Buffer.from(`${bundle.map.trimEnd()}${" ".repeat(variant)}`));
  store.addDebugId(PROJECT, DEBUG_ID, { sourceMap: indexed ? withIndex(file, indexParts) : file });
  return store;
}

const check = (result: Awaited<ReturnType<typeof symbolicate>>) => {
  const mapped = result.exceptions[0].frames.filter((frame) => frame.symbolication === "mapped").length;
  if (mapped !== FRAMES) throw new Error(`${mapped} of ${FRAMES} frames mapped`);
  if (!result.exceptions[0].frames.every((frame) => frame.contextLine?.includes("throw new Error"))) throw new Error("a frame's context line is not its throw");
};

/**
 * The longest the main thread's event loop was held, over `run`. A fresh histogram each time: one
 * enabled again after a pause counts the pause as its first delay.
 */
async function loopDelayDuring<T>(run: () => Promise<T>): Promise<{ value: T; maxMs: number; busyMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const before = performance.eventLoopUtilization();
  histogram.enable();
  const value = await run();
  histogram.disable();
  const used = performance.eventLoopUtilization(before);
  return { value, maxMs: histogram.max / 1e6, busyMs: used.active };
}

const cold: number[] = [];
const coldDelays: number[] = [];
for (let run = 0; run < COLD_RUNS; run++) {
  const store = storeWith(run + 1);
  const maps = new IndexedMapLookup(workers);
  const started = performance.now();
  const { value, maxMs, busyMs } = await loopDelayDuring(() => symbolicate(event, PROJECT, store, maps));
  cold.push(performance.now() - started);
  coldDelays.push(maxMs);
  console.log(
    `cold run ${run + 1}: ${Math.round(performance.now() - started)} ms, event-loop delay ${maxMs.toFixed(1)} ms, main thread busy ${busyMs.toFixed(1)} ms`,
  );
  check(value);
}
// The same measure with nothing to do, as long as a cold run: what the machine's own load costs the loop.
const idle = await loopDelayDuring(() => new Promise((resolve) => setTimeout(resolve, Math.max(...cold))));
const warmStore = storeWith(COLD_RUNS);
const warmMaps = new IndexedMapLookup(workers);
await symbolicate(event, PROJECT, warmStore, warmMaps);
const warm: number[] = [];
for (let run = 0; run < WARM_RUNS; run++) {
  const started = performance.now();
  check(await symbolicate(event, PROJECT, warmStore, warmMaps));
  warm.push(performance.now() - started);
}
// For comparison: a map without an index, parsed whole on the worker (fresh bytes: not in its cache).
const unindexed: number[] = [];
let unindexedDelay = 0;
for (let run = 0; run < (args.smoke ? 1 : 2); run++) {
  const store = storeWith(COLD_RUNS + 100 + run, false);
  const started = performance.now();
  const { value, maxMs } = await loopDelayDuring(() => symbolicate(event, PROJECT, store, new IndexedMapLookup(workers)));
  unindexed.push(performance.now() - started);
  unindexedDelay = Math.max(unindexedDelay, maxMs);
  check(value);
}
await workers.close();

const coldP = percentiles(cold.sort((a, b) => a - b));
const warmP = percentiles(warm.sort((a, b) => a - b));
const round = (ms: number) => Math.round(ms * 10) / 10;
const loopMax = round(Math.max(...coldDelays));
const verdict = (value: number, target: number) => (args.smoke ? "—" : value < target ? "met" : "MISSED");
const table = [
  "| measure | p50 | max | target | |",
  "| --- | ---: | ---: | ---: | --- |",
  `| cold: index parts read + ${FRAMES} frames (${COLD_RUNS} runs) | ${coldP.p50} ms | ${coldP.max} ms | < ${TARGETS.coldMs} ms | ${verdict(coldP.max, TARGETS.coldMs)} |`,
  `| warm: ${FRAMES} frames (${WARM_RUNS} runs) | ${warmP.p50} ms | ${warmP.max} ms (p95 ${warmP.p95}) | < ${TARGETS.warmMs} ms | ${verdict(warmP.p95, TARGETS.warmMs)} |`,
  `| main thread's event-loop delay during the cold runs | | ${loopMax} ms | < ${TARGETS.loopDelayMs} ms | ${verdict(loopMax, TARGETS.loopDelayMs)} |`,
  `| the same, idle for as long (the machine's own noise) | | ${round(idle.maxMs)} ms | | |`,
  `| for comparison, cold without an index: whole map parsed on the worker (${unindexed.length} runs) | ${round(percentiles(unindexed.sort((a, b) => a - b)).p50)} ms | ${round(Math.max(...unindexed))} ms (loop delay ${round(unindexedDelay)} ms) | | |`,
  "",
  `Machine load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores during the run. Map: ${(mapBytes / 2 ** 20).toFixed(1)} MB (${MODULES} modules, sources included), code ${(bundle.code.length / 2 ** 20).toFixed(1)} MB on ${bundle.code.split("\n").length} line(s); its index ${indexParts.length} parts, ${(indexBytes / 2 ** 20).toFixed(1)} MB.`,
].join("\n");
console.log(`\n${table}`);
if (args.write) {
  appendResults(
    "bench:symbolicate",
    { commit: currentCommit(), machine: machineDescription("no database"), method: `\`npm run bench:symbolicate -- --modules ${MODULES} --write\`` },
    table,
  );
}
const missed = [coldP.max >= TARGETS.coldMs && "cold", warmP.p95 >= TARGETS.warmMs && "warm", loopMax >= TARGETS.loopDelayMs && "event-loop delay"].filter(
  Boolean,
);
if (!args.smoke && missed.length > 0) {
  console.error(`bench:symbolicate: target missed: ${missed.join(", ")}`);
  process.exitCode = 1;
}
