import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import type { MapInput } from "./parsed-source-map";
import { SOURCE_MAP_LIMITS, type SourceMapLimits } from "./source-map-limits";
import { SourceMapWorkers, SymbolicatorUnavailableError } from "./source-map-workers";

const REAL_ENTRY = new URL("./source-map-worker.ts", import.meta.url).href;
/** The real worker, except that its thread stops while parsing a map whose JSON holds "crash-me" (a stand-in for a parser crash). */
const CRASHING_ENTRY = `data:text/javascript,${encodeURIComponent(
  `const parse = JSON.parse;
   JSON.parse = (text, ...rest) => { if (text.includes("crash-me")) process.exit(7); return parse(text, ...rest); };
   await import(${JSON.stringify(REAL_ENTRY)});`,
)}`;
/** A worker that takes every lookup and never answers. */
const SILENT_ENTRY = `data:text/javascript,${encodeURIComponent(`import { parentPort } from "node:worker_threads"; parentPort.on("message", () => {});`)}`;

/** A small valid map: one generated segment mapped to line 1 of `a.js`. */
const MAP = JSON.stringify({ version: 3, sources: ["a.js"], sourcesContent: ["const a = 1;\n"], names: [], mappings: "AAAA" });
/** A map's loader that counts how often it is called. */
const mapInput = (text = MAP) => {
  const load = Object.assign(
    async (): Promise<MapInput> => {
      load.calls++;
      return { kind: "json", bytes: Buffer.from(text) };
    },
    { calls: 0 },
  );
  return load;
};
const POSITION = [{ line: 1, column: 0 }];

let pool: SourceMapWorkers | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});
const poolOf = (options: { entry?: string; limits?: Partial<SourceMapLimits> } = {}) =>
  (pool = new SourceMapWorkers(createLogger("silent"), { entry: options.entry, limits: { ...SOURCE_MAP_LIMITS, ...options.limits } }));

describe("source map workers", () => {
  it("parse once, then answer from the worker's cache without the bytes", { timeout: 60_000 }, async () => {
    const workers = poolOf();
    const load = mapInput();
    const first = await workers.lookup("a", load, POSITION);
    expect(first).toMatchObject({ status: "ok", positions: [{ source: "a.js", line: 1, column: 0, context: { line: "const a = 1;" } }] });
    expect(await workers.lookup("a", load, POSITION)).toEqual(first);
    expect(load.calls).toBe(1);
  });

  it(
    "replace a worker that dies on a map: that map answers map_invalid for good, the other lookup it held is answered by its successor",
    { timeout: 60_000 },
    async () => {
      const workers = poolOf({ entry: CRASHING_ENTRY });
      const crashing = JSON.stringify({ ...JSON.parse(MAP), file: "crash-me" });
      const [crashed, survived] = await Promise.all([workers.lookup("crash", mapInput(crashing), POSITION), workers.lookup("fine", mapInput(), POSITION)]);
      expect(crashed).toMatchObject({ status: "invalid", reason: expect.stringContaining("worker exit code 7") });
      expect(survived).toMatchObject({ status: "ok", positions: [{ source: "a.js" }] });
      expect(workers.started).toBe(2);
      // The map that killed a worker is not handed to the next one.
      const again = mapInput(crashing);
      expect(await workers.lookup("crash", again, POSITION)).toMatchObject({ status: "invalid" });
      expect(again.calls).toBe(0);
      expect(workers.started).toBe(2);
    },
  );

  it("a map whose mappings outgrow the worker's heap: the worker dies, not the process, and the map is map_invalid", { timeout: 120_000 }, async () => {
    // Within the byte, line and segment caps given here, but 4 million decoded segments do not fit a 48 MB heap.
    const workers = poolOf({ limits: { workerHeapMb: 48, maxSegments: 10_000_000 } });
    const absurd = JSON.stringify({ version: 3, sources: ["a.js"], names: [], mappings: "AAAA,".repeat(4_000_000) });
    expect(await workers.lookup("absurd", mapInput(absurd), POSITION)).toMatchObject({
      status: "invalid",
      reason: expect.stringContaining("stopped the symbolicator"),
    });
    expect(await workers.lookup("small", mapInput(), POSITION)).toMatchObject({ status: "ok" });
    expect(workers.started).toBe(2);
  });

  it("replace a worker that gives no answer in time, and answer map_invalid rather than wait", { timeout: 60_000 }, async () => {
    const workers = poolOf({ entry: SILENT_ENTRY, limits: { lookupTimeoutMs: 300 } });
    expect(await workers.lookup("a", mapInput(), POSITION)).toEqual({ status: "invalid", reason: "the symbolicator stopped twice on this lookup" });
    expect(workers.started).toBe(2);
  });

  it("refuse a lookup past the queue bound, and settle what it held on close", { timeout: 60_000 }, async () => {
    const workers = poolOf({ entry: SILENT_ENTRY, limits: { maxQueuedLookups: 1 } });
    const held = workers.lookup("a", mapInput(), POSITION);
    await expect(workers.lookup("b", mapInput(), POSITION)).rejects.toBeInstanceOf(SymbolicatorUnavailableError);
    await workers.close();
    await expect(held).rejects.toBeInstanceOf(SymbolicatorUnavailableError);
  });
});
