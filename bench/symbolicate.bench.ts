/**
 * Issue 33: what symbolicating a minified JavaScript stack costs. A real esbuild build of generated
 * modules (≈ 20 MB of source map at the default size, sources included) and a 50-frame stack in it,
 * symbolicated through symbolicate() and the worker thread (src/server/sourcemaps/):
 *   - cold: the map is not parsed yet (read from the store, sent to the worker, parsed, looked up);
 *   - warm: the same event again, the map in the worker's cache;
 *   - the main thread's event-loop delay (perf_hooks.monitorEventLoopDelay) during the cold runs.
 * Targets (here, never in tests): cold < 200 ms, warm < 5 ms, event-loop delay < 20 ms.
 *   npm run bench:symbolicate [-- --modules 3400 --cold 3 --warm 50] [-- --write]
 *   npm run bench:symbolicate -- --smoke      (a small map, a few runs; correctness only, no targets)
 */
import { cpus, loadavg } from "node:os";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { createLogger } from "../src/server/logger";
import { normalizeSentryEvent } from "../src/server/ingest/normalize/event.normalizer";
import { SourceMapWorkers } from "../src/server/sourcemaps/source-map-workers";
import { symbolicate } from "../src/server/sourcemaps/symbolicate";
import { buildBundle } from "../test/helpers/esbuild-bundle";
import { artifactOf, MemorySourceMapStore } from "../test/helpers/memory-source-map-store";
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

/** N modules of ten functions each, every one with a throw: a bundle of many functions, like an app's. */
function generatedSources(modules: number): Record<string, string> {
  const files: Record<string, string> = {};
  let index = "";
  for (let m = 0; m < modules; m++) {
    let source = "";
    for (let f = 0; f < 10; f++) {
      source +=
        `export function module${m}Function${f}(inputValue: number, otherArgument: string): string {\n` +
        `  const intermediateResult = inputValue * ${f + 1} + otherArgument.length;\n` +
        `  if (intermediateResult > ${1000 + f}) {\n` +
        `    throw new Error("too large in module ${m} function ${f}: " + intermediateResult);\n` +
        `  }\n` +
        `  return otherArgument.repeat(intermediateResult % 3) + String(intermediateResult);\n` +
        `}\n`;
    }
    files[`src/m${m}.ts`] = source;
    index += `export * from "./m${m}";\n`;
  }
  files["src/index.ts"] = `${index}(globalThis as any).app = ${JSON.stringify("loaded")};\n`;
  return files;
}

console.log(`bench:symbolicate: building ${MODULES} modules with esbuild…`);
const built = performance.now();
const bundle = await buildBundle(generatedSources(MODULES), "src/index.ts");
const mapBytes = Buffer.byteLength(bundle.map);
console.log(
  `built in ${Math.round(performance.now() - built)} ms: ${(bundle.code.length / 2 ** 20).toFixed(1)} MB of code, ${(mapBytes / 2 ** 20).toFixed(1)} MB of map`,
);

// 50 frames at 50 throw sites spread over the bundle (each a distinct position in the one minified line).
const sites: number[] = [];
for (let at = bundle.code.indexOf("throw new Error"); at !== -1; at = bundle.code.indexOf("throw new Error", at + 1)) sites.push(at);
if (sites.length < FRAMES) throw new Error(`only ${sites.length} throw sites in the bundle`);
const frames = Array.from({ length: FRAMES }, (_, i) => {
  const at = sites[Math.floor((i * sites.length) / FRAMES)];
  const before = bundle.code.slice(0, at);
  const lineno = before.split("\n").length;
  return { filename: SCRIPT_URL, function: "x", lineno, colno: at - before.lastIndexOf("\n"), in_app: true };
});
const event = normalizeSentryEvent({
  event_id: "0123456789abcdef0123456789abcdef",
  platform: "javascript",
  exception: { values: [{ type: "Error", value: "too large", stacktrace: { frames } }] },
  debug_meta: { images: [{ type: "sourcemap", code_file: SCRIPT_URL, debug_id: DEBUG_ID }] },
});

/** A store holding the map under the debug id; `variant` changes its bytes (and SHA-1) so that each cold run parses anew. */
function storeWith(variant: number) {
  const store = new MemorySourceMapStore();
  const bytes = Buffer.from(`${bundle.map.trimEnd()}${" ".repeat(variant)}`);
  store.addDebugId(PROJECT, DEBUG_ID, { sourceMap: artifactOf(bytes) });
  return store;
}

const workers = new SourceMapWorkers(createLogger("error"));
// Start the worker (its TypeScript loader) before measuring: a cold map, not a cold thread.
const tiny = new MemorySourceMapStore();
tiny.addDebugId(PROJECT, DEBUG_ID, { sourceMap: artifactOf(JSON.stringify({ version: 3, sources: ["a.js"], names: [], mappings: "AAAA" })) });
await symbolicate(event, PROJECT, tiny, workers);

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
  const started = performance.now();
  const { value, maxMs, busyMs } = await loopDelayDuring(() => symbolicate(event, PROJECT, store, workers));
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
const warm: number[] = [];
for (let run = 0; run < WARM_RUNS; run++) {
  const started = performance.now();
  check(await symbolicate(event, PROJECT, warmStore, workers));
  warm.push(performance.now() - started);
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
  `| cold: parse + ${FRAMES} frames (${COLD_RUNS} runs) | ${coldP.p50} ms | ${coldP.max} ms | < ${TARGETS.coldMs} ms | ${verdict(coldP.max, TARGETS.coldMs)} |`,
  `| warm: ${FRAMES} frames (${WARM_RUNS} runs) | ${warmP.p50} ms | ${warmP.max} ms (p95 ${warmP.p95}) | < ${TARGETS.warmMs} ms | ${verdict(warmP.p95, TARGETS.warmMs)} |`,
  `| main thread's event-loop delay during the cold runs | | ${loopMax} ms | < ${TARGETS.loopDelayMs} ms | ${verdict(loopMax, TARGETS.loopDelayMs)} |`,
  `| the same, idle for as long (the machine's own noise) | | ${round(idle.maxMs)} ms | | |`,
  "",
  `Machine load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores during the run. Map: ${(mapBytes / 2 ** 20).toFixed(1)} MB (${MODULES} modules, sources included), code ${(bundle.code.length / 2 ** 20).toFixed(1)} MB on ${bundle.code.split("\n").length} line(s).`,
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
