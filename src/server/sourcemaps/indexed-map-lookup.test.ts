import { describe, expect, it } from "vitest";
import { buildBundle } from "../../../test/helpers/esbuild-bundle";
import { IndexedMapLookup } from "./indexed-map-lookup";
import { buildMapIndex } from "./map-index-build";
import { encodePart, MAP_INDEX_LIMITS } from "./map-index-format";
import { originalPositions, parseSourceMap, type GeneratedPosition, type MapInput } from "./parsed-source-map";
import { SOURCE_MAP_LIMITS } from "./source-map-limits";
import type { MapIndexer } from "./map-indexing";
import type { MapIndexParts } from "./source-map-store";
import type { MapAnswer, MapLookup } from "./source-map-workers";

const json = (map: unknown): MapInput => ({ kind: "json", bytes: Buffer.from(typeof map === "string" ? map : JSON.stringify(map)) });
/** Tiny pages and blocks: every lookup crosses page and block edges. */
const TINY = { ...MAP_INDEX_LIMITS, pageSegments: 5, blockLines: 3, blockBytes: 60 };

/** An index kept in memory, its reads recorded. */
function memoryIndex(parts: Uint8Array[]): MapIndexParts & { reads: number[][] } {
  const reads: number[][] = [];
  return {
    reads,
    async read(numbers) {
      reads.push([...numbers]);
      return new Map(numbers.filter((n) => n < parts.length).map((n) => [n, parts[n]]));
    },
  };
}

/** The whole-map answer (and index), where a test wants to see the index was not used. */
class RecordingFallback implements MapLookup, MapIndexer {
  keys: string[] = [];
  indexed: string[] = [];
  async lookup(key: string, load: () => Promise<MapInput>, positions: GeneratedPosition[]): Promise<MapAnswer> {
    this.keys.push(key);
    const parsed = parseSourceMap(await load());
    return { status: "ok", debugId: parsed.debugId, positions: originalPositions(parsed, positions) };
  }
  async index(key: string, load: () => Promise<MapInput>) {
    this.indexed.push(key);
    return buildMapIndex(parseSourceMap(await load()));
  }
}

/** Every segment's position, and the columns either side of it, on every line and one past the last. */
function probes(map: { mappings: string }): GeneratedPosition[] {
  const positions: GeneratedPosition[] = [
    { line: 0, column: 0 },
    { line: 1, column: -1 },
  ];
  map.mappings.split(";").forEach((_, line) => {
    for (let column = 0; column < 120; column += 7) positions.push({ line: line + 1, column });
  });
  positions.push({ line: map.mappings.split(";").length + 1, column: 0 });
  return positions;
}

async function expectSameAnswers(map: string | Record<string, unknown>, positions: GeneratedPosition[], limits = TINY) {
  const parsed = parseSourceMap(json(map));
  const build = buildMapIndex(parsed, limits);
  if (build.status !== "indexed") throw new Error(build.reason);
  const fallback = new RecordingFallback();
  const answer = await new IndexedMapLookup(fallback).lookup("map", async () => json(map), positions, memoryIndex(build.parts));
  expect(fallback.keys).toEqual([]);
  expect(answer).toEqual({ status: "ok", debugId: parsed.debugId, positions: originalPositions(parseSourceMap(json(map)), positions) });
  return { answer, parts: build.parts.length };
}

describe("IndexedMapLookup over a map's index", () => {
  it("answers what the whole map answers, for every position of a real esbuild bundle", async () => {
    const files: Record<string, string> = {};
    let entry = "";
    for (let m = 0; m < 12; m++) {
      files[`src/m${m}.ts`] = Array.from(
        { length: 4 },
        (_, f) =>
          `export function module${m}Fn${f}(value: number) {\n  if (value > ${f}) {\n    throw new Error("m${m} f${f} " + value);\n  }\n  return value * ${f};\n}\n`,
      ).join("");
      entry += `export * from "./m${m}";\n`;
    }
    files["src/index.ts"] = `${entry}(globalThis as any).loaded = true;\n`;
    const bundle = await buildBundle(files, "src/index.ts");
    const positions: GeneratedPosition[] = [];
    const lines = bundle.code.split("\n");
    lines.forEach((text, line) => {
      for (let column = 0; column < text.length; column += 3) positions.push({ line: line + 1, column });
    });
    const { answer, parts } = await expectSameAnswers(bundle.map, positions);
    // Not a vacuous equality: most probes map, with names and context lines, over many pages and blocks.
    const mapped = (answer as Extract<MapAnswer, { status: "ok" }>).positions.filter((position) => position?.context);
    expect(mapped.length).toBeGreaterThan(positions.length / 2);
    expect(parts).toBeGreaterThan(50);
  });

  it("keeps trace-mapping's rules: several lines, unmapped segments, one position twice, names, sourceRoot and ignoreList", async () => {
    // Line 1: a sourceless segment at column 10; line 2 empty; line 3: two segments at column 4 (the first wins).
    const map = {
      version: 3,
      sourceRoot: "webpack://app/",
      sources: ["src/a.ts", "node_modules/lib/index.js", "src/a.ts"],
      sourcesContent: ["a1\na2\na3\na4\na5\na6\na7\na8", "l1\r\nl2\rl3", null],
      names: ["alpha", "beta"],
      ignoreList: [1],
      debugId: "ABCDEF00-1111-2222-3333-444455556666",
      mappings: "AAAAA,EAACC,EAAE,IAAA,EAAA,K;;IAEAD,AACAC,GAAA;ACAA,ACAA,AAAA,CAAC",
    };
    await expectSameAnswers(map, probes(map), { ...TINY, pageSegments: 2, blockLines: 2 });
  });

  it("reads a sectioned map the way AnyMap flattens it", async () => {
    const inner = (source: string) => ({ version: 3, sources: [source], sourcesContent: [`// ${source}\nx\ny`], names: ["n"], mappings: "AAAA,EAAEA;AACA" });
    const map = {
      version: 3,
      sections: [
        { offset: { line: 0, column: 0 }, map: inner("first.ts") },
        { offset: { line: 0, column: 40 }, map: inner("second.ts") },
        { offset: { line: 3, column: 0 }, map: inner("third.ts") },
      ],
    };
    await expectSameAnswers(map, probes({ mappings: ";;;;" }));
  });

  it("reads only the header, the pages of the positions and the blocks of their context", async () => {
    const source = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n");
    const mappings = Array.from({ length: 100 }, (_, i) => (i === 0 ? "AAAA" : "AACA")).join(";");
    const map = { version: 3, sources: ["big.ts"], sourcesContent: [source], names: [], mappings };
    const build = buildMapIndex(parseSourceMap(json(map)), { ...TINY, pageSegments: 10, blockLines: 10, blockBytes: 10_000 });
    if (build.status !== "indexed") throw new Error(build.reason);
    const index = memoryIndex(build.parts);
    const lookup = new IndexedMapLookup(new RecordingFallback());
    const answer = await lookup.lookup("big", async () => json(map), [{ line: 55, column: 0 }], index);
    expect(answer).toMatchObject({
      status: "ok",
      positions: [{ source: "big.ts", line: 55, context: { line: "line 55", pre: ["line 50", "line 51", "line 52", "line 53", "line 54"] } }],
    });
    // Header, then page 6 (part 6), then the blocks of lines 50–60 (0-based 49–59: two of ten, after the ten pages).
    expect(index.reads).toEqual([[0], [6], [15, 16]]);
    // The same map again: from the cache, nothing read.
    await lookup.lookup("big", async () => json(map), [{ line: 55, column: 0 }], index);
    expect(index.reads).toHaveLength(3);
  });

  it("leaves a map without an index, or with a part gone, to the whole-map lookup", async () => {
    const map = { version: 3, sources: ["a.ts"], sourcesContent: ["x\ny"], names: [], mappings: "AAAA;AACA" };
    const fallback = new RecordingFallback();
    const lookup = new IndexedMapLookup(fallback);
    const expected = originalPositions(parseSourceMap(json(map)), [{ line: 2, column: 0 }]);
    expect(await lookup.lookup("none", async () => json(map), [{ line: 2, column: 0 }], memoryIndex([]))).toEqual({
      status: "ok",
      debugId: null,
      positions: expected,
    });
    const build = buildMapIndex(parseSourceMap(json(map)));
    if (build.status !== "indexed") throw new Error(build.reason);
    const withoutPages = memoryIndex(build.parts.slice(0, 1));
    expect(await lookup.lookup("partial", async () => json(map), [{ line: 2, column: 0 }], withoutPages)).toEqual({
      status: "ok",
      debugId: null,
      positions: expected,
    });
    // A header this version cannot read (damaged, or from a newer version): read whole too, never a failed event.
    const unreadable = memoryIndex([encodePart(JSON.stringify({ v: 99 })), ...build.parts.slice(1)]);
    expect(await lookup.lookup("newer", async () => json(map), [{ line: 2, column: 0 }], unreadable)).toEqual({
      status: "ok",
      debugId: null,
      positions: expected,
    });
    expect(fallback.keys).toEqual(["none", "partial", "newer"]);
  });

  it("does not index a map whose header or pages would be too large to read on the main thread", () => {
    const many = { version: 3, sources: Array.from({ length: 2000 }, (_, i) => `src/file-${i}.ts`), names: [], mappings: "AAAA" };
    expect(buildMapIndex(parseSourceMap(json(many)), { ...MAP_INDEX_LIMITS, maxHeaderBytes: 10_000 })).toMatchObject({
      status: "unindexed",
      reason: /header is over 10000 bytes/,
    });
    const longName = { version: 3, sources: ["a.ts"], names: ["n".repeat(5000)], mappings: "AAAAA" };
    expect(buildMapIndex(parseSourceMap(json(longName)), { ...MAP_INDEX_LIMITS, maxPageBytes: 1000 })).toMatchObject({
      status: "unindexed",
      reason: /over 1000 bytes/,
    });
    expect(SOURCE_MAP_LIMITS.indexCacheBytes).toBeGreaterThan(0);
  });
});

describe("IndexedMapLookup's remembered answers", () => {
  it("answers a position looked up before without reading the index again, and equal to the first answer", async () => {
    const map = { version: 3, sources: ["a.ts"], sourcesContent: ["one\ntwo\nthree"], names: ["f"], mappings: "AAAAA;AACA;AACA" };
    const build = buildMapIndex(parseSourceMap(json(map)));
    if (build.status !== "indexed") throw new Error(build.reason);
    const index = memoryIndex(build.parts);
    const lookup = new IndexedMapLookup(new RecordingFallback());
    const first = await lookup.lookup("m", async () => json(map), [{ line: 2, column: 0 }], index);
    const reads = index.reads.length;
    expect(await lookup.lookup("m", async () => json(map), [{ line: 2, column: 0 }], index)).toEqual(first);
    expect(index.reads).toHaveLength(reads);
    // A new position of the same map reads only what it lacks (its page and block are cached: nothing).
    expect(await lookup.lookup("m", async () => json(map), [{ line: 3, column: 0 }], index)).toMatchObject({
      positions: [{ line: 3, context: { line: "three" } }],
    });
  });
});

describe("a stored map found without an index", () => {
  it("is answered whole, indexed in the background once, and read through its index afterwards", async () => {
    const map = { version: 3, sources: ["a.ts"], sourcesContent: ["one\ntwo"], names: [], mappings: "AAAA;AACA" };
    const stored: Uint8Array[] = [];
    let saved!: () => void;
    const savedOnce = new Promise<void>((resolve) => (saved = resolve));
    const index: MapIndexParts = {
      read: async (numbers) => new Map(numbers.filter((n) => n < stored.length).map((n) => [n, stored[n]])),
      save: async (parts) => {
        stored.push(...parts);
        saved();
      },
    };
    const fallback = new RecordingFallback();
    const lookup = new IndexedMapLookup(fallback);
    const first = await lookup.lookup("old", async () => json(map), [{ line: 2, column: 0 }], index);
    await lookup.lookup("old", async () => json(map), [{ line: 1, column: 0 }], index);
    await savedOnce;
    expect(fallback.indexed).toEqual(["old"]);
    expect(fallback.keys.length).toBeGreaterThanOrEqual(1);
    const before = fallback.keys.length;
    expect(await lookup.lookup("old", async () => json(map), [{ line: 2, column: 0 }], index)).toEqual(first);
    await lookup.lookup("old", async () => json(map), [{ line: 1, column: 0 }], index);
    expect(fallback.keys).toHaveLength(before);
  });
});
