import { beforeAll, describe, expect, it } from "vitest";
import { buildBundle, type Bundle } from "../../../test/helpers/esbuild-bundle";
import { ParsedMapCache } from "./parsed-map-cache";
import { MapInvalidError, originalPositions, parseSourceMap, type ParsedSourceMap } from "./parsed-source-map";
import { SOURCE_MAP_LIMITS, type SourceMapLimits } from "./source-map-limits";

const SOURCES = {
  "src/price.ts": [
    "export function formatPrice(cents: number): string {",
    "  if (cents < 0) {",
    '    throw new Error("negative price: " + cents);',
    "  }",
    "  return (cents / 100).toFixed(2);",
    "}",
    "",
  ].join("\n"),
  "src/main.ts": [
    'import { formatPrice } from "./price";',
    "export function renderPrice(cents: number) {",
    '  return "Total: " + formatPrice(cents);',
    "}",
    "(globalThis as any).renderPrice = renderPrice;",
    "",
  ].join("\n"),
};

const json = (map: unknown) => ({ kind: "json" as const, bytes: Buffer.from(JSON.stringify(map)) });
/** The generated position (1-based line, 0-based column) of `needle` in the minified code. */
function positionOf(code: string, needle: string) {
  const at = code.indexOf(needle);
  expect(at, `${needle} in the bundle`).toBeGreaterThanOrEqual(0);
  const before = code.slice(0, at).split("\n");
  return { line: before.length, column: before.at(-1)!.length };
}

let bundle: Bundle;
let map: Record<string, unknown>;
beforeAll(async () => {
  bundle = await buildBundle(SOURCES, "src/main.ts");
  map = JSON.parse(bundle.map);
});

describe("parseSourceMap and originalPositions", () => {
  it("read a real esbuild map: the throw's original file, line, column and its context lines", () => {
    const parsed = parseSourceMap(json(map));
    const [position] = originalPositions(parsed, [positionOf(bundle.code, "throw new Error")]);
    expect(position).toMatchObject({ source: "../src/price.ts", line: 3, column: 4, ignored: false });
    expect(position!.context).toEqual({
      pre: ["export function formatPrice(cents: number): string {", "  if (cents < 0) {"],
      line: '    throw new Error("negative price: " + cents);',
      post: ["  }", "  return (cents / 100).toFixed(2);", "}", ""],
    });
    expect(parsed.debugId).toBeNull();
    expect(parsed.bytes).toBe(Buffer.byteLength(JSON.stringify(map)));
  });

  it("answer null where the map has no mapping, and for positions that are not positions", () => {
    const parsed = parseSourceMap(json(map));
    expect(
      originalPositions(parsed, [
        { line: 9999, column: 0 },
        { line: 0, column: 0 },
        { line: 1, column: -1 },
      ]),
    ).toEqual([null, null, null]);
  });

  it("give no context when the source's content is null (the position still maps)", () => {
    const parsed = parseSourceMap(json({ ...map, sourcesContent: (map.sourcesContent as string[]).map(() => null) }));
    const [position] = originalPositions(parsed, [positionOf(bundle.code, "throw new Error")]);
    expect(position).toMatchObject({ source: "../src/price.ts", line: 3, context: null });
  });

  it("mark sources of the ignoreList, or of the older x_google_ignoreList, as ignored", () => {
    const price = (map.sources as string[]).indexOf("../src/price.ts");
    for (const key of ["ignoreList", "x_google_ignoreList"]) {
      const parsed = parseSourceMap(json({ ...map, [key]: [price] }));
      expect(originalPositions(parsed, [positionOf(bundle.code, "throw new Error")])[0]?.ignored).toBe(true);
    }
  });

  it("read a sectioned (indexed) map: a section's positions are offset by its start", () => {
    const sectioned = { version: 3, sections: [{ offset: { line: 2, column: 0 }, map }] };
    const parsed = parseSourceMap(json(sectioned));
    const plain = positionOf(bundle.code, "throw new Error");
    const [position] = originalPositions(parsed, [{ line: plain.line + 2, column: plain.column }]);
    expect(position).toMatchObject({ source: "../src/price.ts", line: 3, column: 4 });
  });

  it("read the map's debug id under `debugId` or the older `debug_id`, lower-cased", () => {
    expect(parseSourceMap(json({ ...map, debugId: "C941E109-6A2B-4E0F-9F2D-1B5F2A1E0C11" })).debugId).toBe("c941e109-6a2b-4e0f-9f2d-1b5f2a1e0c11");
    expect(parseSourceMap(json({ ...map, debug_id: "c941e109-6a2b-4e0f-9f2d-1b5f2a1e0c12" })).debugId).toBe("c941e109-6a2b-4e0f-9f2d-1b5f2a1e0c12");
  });

  it("read an inline data: map, base64 or percent-encoded", () => {
    const base64 = `data:application/json;charset=utf-8;base64,${Buffer.from(bundle.map).toString("base64")}`;
    const percent = `data:application/json,${encodeURIComponent(bundle.map)}`;
    for (const url of [base64, percent]) {
      const parsed = parseSourceMap({ kind: "dataUrl", bytes: Buffer.from(url) });
      expect(originalPositions(parsed, [positionOf(bundle.code, "throw new Error")])[0]).toMatchObject({ source: "../src/price.ts", line: 3 });
    }
  });

  it("cut a long context line around the column", async () => {
    const long = await buildBundle({ "src/long.ts": `export const pad = "${"a".repeat(3000)}"; throw new Error("long line " + pad.length);\n` }, "src/long.ts");
    const limits = { ...SOURCE_MAP_LIMITS, maxContextLineLength: 100 };
    const parsed = parseSourceMap(json(JSON.parse(long.map)), limits);
    const [position] = originalPositions(parsed, [positionOf(long.code, "throw new Error")], limits);
    expect(position).toMatchObject({ line: 1, column: 3023 });
    expect(position!.context!.line).toHaveLength(100);
    expect(position!.context!.line).toContain("throw new Error");
  });
});

describe("parseSourceMap refuses, with bounded work", () => {
  const refused = (input: Parameters<typeof parseSourceMap>[0], limits: SourceMapLimits = SOURCE_MAP_LIMITS) => {
    try {
      parseSourceMap(input, limits);
    } catch (error) {
      expect(error).toBeInstanceOf(MapInvalidError);
      return (error as Error).message;
    }
    throw new Error("the map was accepted");
  };

  it("what is not a source map", () => {
    expect(refused({ kind: "json", bytes: Buffer.from("<html>not found</html>") })).toBe("the map is not JSON");
    expect(refused(json([1, 2]))).toBe("the map is not a JSON object");
    expect(refused(json({ version: 3, sources: [] }))).toBe("`mappings` is not a string");
    expect(refused(json({ ...map, version: 2 }))).toBe("unsupported source map version 2");
    expect(refused(json({ version: 3, sections: [{ offset: { line: 0, column: 0 }, url: "https://elsewhere/x.map" }] }))).toMatch(/url/);
  });

  it("a map over the byte cap, plain or inline", () => {
    const small = { ...SOURCE_MAP_LIMITS, maxMapBytes: 500 };
    expect(Buffer.byteLength(JSON.stringify(map))).toBeGreaterThan(500);
    expect(refused(json(map), small)).toMatch(/over the 500 byte cap/);
    expect(refused({ kind: "dataUrl", bytes: Buffer.from(`data:application/json;base64,${Buffer.from(bundle.map).toString("base64")}`) }, small)).toMatch(
      /over the 500 byte cap/,
    );
  });

  it("a sectioned map claiming 10^9 lines, before the flattener allocates a line of them", () => {
    const absurd = { version: 3, sections: [{ offset: { line: 1_000_000_000, column: 0 }, map }] };
    expect(refused(json(absurd))).toMatch(/starts at generated line 1000000000/);
    const nested = {
      version: 3,
      sections: [{ offset: { line: 1_500_000, column: 0 }, map: { version: 3, sections: [{ offset: { line: 1_500_000, column: 0 }, map }] } }],
    };
    expect(refused(json(nested))).toMatch(/generated line 3000000/);
  });

  it("mappings spanning more lines, or holding more segments, than the caps", () => {
    expect(refused(json({ ...map, mappings: ";".repeat(3_000_000) }))).toMatch(/spans 3000001 generated lines/);
    expect(refused(json({ ...map, mappings: "AAAA,".repeat(100) }), { ...SOURCE_MAP_LIMITS, maxSegments: 50 })).toMatch(/holds 101 mappings, over the 50 cap/);
  });
});

describe("ParsedMapCache", () => {
  const parsedOf = (bytes: number) => ({ ...parseSourceMap(json(map)), bytes }) as ParsedSourceMap;

  it("keep maps within the byte budget, evicting the least recently used", () => {
    const cache = new ParsedMapCache(300);
    cache.set("a", parsedOf(100));
    cache.set("b", parsedOf(100));
    cache.set("c", parsedOf(100));
    expect(cache.get("a")).toBeDefined(); // a is now the most recently used
    cache.set("d", parsedOf(150));
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.get("d")].map(Boolean)).toEqual([true, false, false, true]);
    expect(cache.bytes).toBe(250);
  });

  it("never keep a map larger than the whole budget", () => {
    const cache = new ParsedMapCache(300);
    cache.set("a", parsedOf(100));
    cache.set("huge", parsedOf(301));
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.get("a")).toBeDefined();
    expect(cache.size).toBe(1);
  });
});
