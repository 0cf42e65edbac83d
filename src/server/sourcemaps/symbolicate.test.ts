import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserOccurrence, buildBundle, stackOfThrow, type Bundle } from "../../../test/helpers/esbuild-bundle";
import { artifactOf, MemorySourceMapStore } from "../../../test/helpers/memory-source-map-store";
import type { NormalizedFrame, NormalizedOccurrence } from "../../shared/occurrence.types";
import { createLogger } from "../logger";
import { SOURCE_MAP_LIMITS } from "./source-map-limits";
import { ArtifactGoneError } from "./source-map-store";
import { SourceMapWorkers } from "./source-map-workers";
import { symbolicate } from "./symbolicate";
import { hasSymbolicationCandidates } from "./symbolication-candidates";

const SOURCES = {
  "node_modules/money-lib/index.js": [
    "export function toFixed2(value) {",
    "  if (value < 0) {",
    '    throw new RangeError("negative amount: " + value);',
    "  }",
    "  return value.toFixed(2);",
    "}",
    "",
  ].join("\n"),
  "src/price.ts": [
    'import { toFixed2 } from "money-lib";',
    "",
    "export function formatPrice(cents: number): string {",
    "  const units = cents / 100;",
    '  return "$" + toFixed2(units);',
    "}",
    "",
  ].join("\n"),
  "src/cart.ts": [
    'import { formatPrice } from "./price";',
    "",
    "export function renderPrice(items: number[]): string {",
    "  let total = 0;",
    "  for (const item of items) total += item;",
    '  return "Total: " + formatPrice(total);',
    "}",
    "",
  ].join("\n"),
  "src/main.ts": [
    'import { renderPrice } from "./cart";',
    "",
    "export function checkout(items: number[]) {",
    "  return renderPrice(items);",
    "}",
    "",
    "(globalThis as any).checkout = checkout;",
    "",
  ].join("\n"),
};

const PROJECT = "2f1d7c1e-5b7a-4a43-9f0e-6d2b1c3a4e01";
const OTHER_PROJECT = "9a0c4e55-1f2b-4d6e-8a7b-3c5d6e7f8091";
const SCRIPT_URL = "https://cdn.example/assets/app.js";
const DEBUG_ID = "c941e109-6a2b-4e0f-9f2d-1b5f2a1e0c11";

let bundle: Bundle;
/** The esbuild map, with its vendor source in the ignoreList (as Vite and webpack write for node_modules). */
let map: Record<string, unknown>;
let stack: string;
const workers = new SourceMapWorkers(createLogger("silent"));

beforeAll(async () => {
  bundle = await buildBundle(SOURCES, "src/main.ts");
  const parsed = JSON.parse(bundle.map) as { sources: string[] };
  map = { ...parsed, ignoreList: [parsed.sources.indexOf("../node_modules/money-lib/index.js")] };
  stack = stackOfThrow(bundle.code, SCRIPT_URL, "checkout([-250, 50])");
});
afterAll(() => workers.close());

const bundleFrames = (occurrence: NormalizedOccurrence) =>
  occurrence.exceptions[0].frames.filter((frame) => frame.raw?.filename === SCRIPT_URL || frame.filename === SCRIPT_URL);
const reasons = (occurrence: NormalizedOccurrence) => occurrence.exceptions[0].frames.map((frame) => frame.symbolication);
const withDebugId = () => browserOccurrence(stack, { debugImages: [{ code_file: SCRIPT_URL, debug_id: DEBUG_ID }] });
const storeWithMap = (mapJson: unknown, projectId = PROJECT) => {
  const store = new MemorySourceMapStore();
  store.addDebugId(projectId, DEBUG_ID, { sourceMap: artifactOf(JSON.stringify(mapJson)), minifiedSource: artifactOf(bundle.code) });
  return store;
};

describe("symbolicate, by debug id", () => {
  it("maps every frame of the bundle to its original file, line, function and code, keeping the minified frame", async () => {
    const event = withDebugId();
    const frames = event.exceptions[0].frames;
    // The stack as the browser SDK parsed it: the page's call, then four frames of the one minified line.
    expect(frames.map((frame) => [frame.filename, frame.lineno])).toEqual([["https://app.example/index.html", 1], ...Array(4).fill([SCRIPT_URL, 1])]);

    const mapped = await symbolicate(event, PROJECT, storeWithMap(map), workers);
    const [page, checkout, renderPrice, formatPrice, toFixed2] = mapped.exceptions[0].frames;
    expect(page).toMatchObject({ filename: "https://app.example/index.html", symbolication: "no_debug_id" });
    expect(page.raw).toBeUndefined();

    expect(toFixed2).toMatchObject({
      filename: "node_modules/money-lib/index.js",
      absPath: "../node_modules/money-lib/index.js",
      function: "toFixed2",
      lineno: 3,
      // V8 points a throw at its `new` expression.
      colno: 11,
      contextLine: '    throw new RangeError("negative amount: " + value);',
      preContext: ["export function toFixed2(value) {", "  if (value < 0) {"],
      postContext: ["  }", "  return value.toFixed(2);", "}", ""],
      inApp: false,
      symbolication: "mapped",
    });
    expect(toFixed2.raw).toEqual({ filename: SCRIPT_URL, function: frames[4].function, lineno: 1, colno: frames[4].colno });
    expect(formatPrice).toMatchObject({
      filename: "src/price.ts",
      function: "formatPrice",
      lineno: 5,
      contextLine: '  return "$" + toFixed2(units);',
      inApp: true,
    });
    expect(renderPrice).toMatchObject({ filename: "src/cart.ts", function: "renderPrice", lineno: 6, contextLine: '  return "Total: " + formatPrice(total);' });
    expect(checkout).toMatchObject({ filename: "src/main.ts", lineno: 4, contextLine: "  return renderPrice(items);", symbolication: "mapped" });
    // The outermost frame of the bundle has no mapped caller to name it: it keeps the name the SDK sent.
    expect(checkout.function).toBe(frames[1].function);
    // The minified names really were minified.
    expect(frames.slice(2).map((frame) => frame.function)).not.toContain("formatPrice");
  });

  it("matches the frame's absPath first, then its filename, to the image's code_file", async () => {
    const event = withDebugId();
    const nodeStyle = (frame: NormalizedFrame): NormalizedFrame =>
      frame.filename === SCRIPT_URL ? { ...frame, filename: "app.js", absPath: SCRIPT_URL } : frame;
    const byAbsPath = { ...event, exceptions: [{ ...event.exceptions[0], frames: event.exceptions[0].frames.map(nodeStyle) }] };
    expect(reasons(await symbolicate(byAbsPath, PROJECT, storeWithMap(map), workers))).toEqual(["no_debug_id", "mapped", "mapped", "mapped", "mapped"]);
    const byFilename = { ...byAbsPath, debugImages: [{ ...event.debugImages![0], name: "app.js" }] };
    expect(reasons(await symbolicate(byFilename, PROJECT, storeWithMap(map), workers))).toEqual(["no_debug_id", "mapped", "mapped", "mapped", "mapped"]);
  });

  it("bundle_not_found: no bundle of this project holds the debug id (another project's does)", async () => {
    const mapped = await symbolicate(withDebugId(), PROJECT, storeWithMap(map, OTHER_PROJECT), workers);
    expect(reasons(mapped)).toEqual(["no_debug_id", ...Array(4).fill("bundle_not_found")]);
    expect(bundleFrames(mapped).every((frame) => frame.raw === undefined && frame.lineno === 1)).toBe(true);
  });

  it("no_map_for_file: the bundle holds the minified file under the debug id, but no map", async () => {
    const store = new MemorySourceMapStore();
    store.addDebugId(PROJECT, DEBUG_ID, { minifiedSource: artifactOf(bundle.code) });
    expect(reasons(await symbolicate(withDebugId(), PROJECT, store, workers))).toEqual(["no_debug_id", ...Array(4).fill("no_map_for_file")]);
  });

  it("maps through a map inline in the minified file when the debug id has no separate map", async () => {
    const inline = await buildBundle(SOURCES, "src/main.ts", { inlineMap: true });
    expect(inline.code).toContain("//# sourceMappingURL=data:application/json;base64,");
    const inlineStack = stackOfThrow(inline.code, SCRIPT_URL, "checkout([-250, 50])");
    const store = new MemorySourceMapStore();
    store.addDebugId(PROJECT, DEBUG_ID, { minifiedSource: artifactOf(inline.code) });
    const event = browserOccurrence(inlineStack, { debugImages: [{ code_file: SCRIPT_URL, debug_id: DEBUG_ID }] });
    const mapped = await symbolicate(event, PROJECT, store, workers);
    expect(mapped.exceptions[0].frames.map((frame) => frame.function).slice(2)).toEqual(["renderPrice", "formatPrice", "toFixed2"]);
  });

  it("no_mapping_at_position: the file changed after the map was made (a line prepended, mappings not shifted)", async () => {
    const shifted = `/* a banner added after the build */\n${bundle.code}`;
    const shiftedStack = stackOfThrow(shifted, SCRIPT_URL, "checkout([-250, 50])");
    const event = browserOccurrence(shiftedStack, { debugImages: [{ code_file: SCRIPT_URL, debug_id: DEBUG_ID }] });
    expect(event.exceptions[0].frames.slice(1).every((frame) => frame.lineno === 2)).toBe(true);
    expect(reasons(await symbolicate(event, PROJECT, storeWithMap(map), workers))).toEqual(["no_debug_id", ...Array(4).fill("no_mapping_at_position")]);
  });

  it("source_missing: the position maps but the map carries no sourcesContent", async () => {
    const { sourcesContent: _dropped, ...withoutContent } = map;
    const mapped = await symbolicate(withDebugId(), PROJECT, storeWithMap(withoutContent), workers);
    expect(reasons(mapped)).toEqual(["no_debug_id", ...Array(4).fill("source_missing")]);
    expect(mapped.exceptions[0].frames[4]).toMatchObject({
      filename: "node_modules/money-lib/index.js",
      lineno: 3,
      function: "toFixed2",
      contextLine: null,
      preContext: [],
    });
    expect(mapped.exceptions[0].frames[4].raw?.filename).toBe(SCRIPT_URL);
  });

  it("reads the map's debug id under `debug_id` too: the same id maps, another is map_invalid", async () => {
    expect(reasons(await symbolicate(withDebugId(), PROJECT, storeWithMap({ ...map, debug_id: DEBUG_ID.toUpperCase() }), workers))).toContain("mapped");
    const otherId = "0d0d0d0d-6a2b-4e0f-9f2d-1b5f2a1e0c11";
    expect(reasons(await symbolicate(withDebugId(), PROJECT, storeWithMap({ ...map, debug_id: otherId }), workers))).toEqual([
      "no_debug_id",
      ...Array(4).fill("map_invalid"),
    ]);
    expect(reasons(await symbolicate(withDebugId(), PROJECT, storeWithMap({ ...map, debugId: otherId }), workers))).toEqual([
      "no_debug_id",
      ...Array(4).fill("map_invalid"),
    ]);
  });

  it("reads a sectioned (indexed) map", async () => {
    const sectioned = { version: 3, sections: [{ offset: { line: 0, column: 0 }, map }] };
    const mapped = await symbolicate(withDebugId(), PROJECT, storeWithMap(sectioned), workers);
    expect(mapped.exceptions[0].frames.slice(2).map((frame) => [frame.function, frame.filename, frame.inApp])).toEqual([
      ["renderPrice", "src/cart.ts", true],
      ["formatPrice", "src/price.ts", true],
      ["toFixed2", "node_modules/money-lib/index.js", false],
    ]);
  });

  it("map_invalid: a map that is not JSON, and one over the size cap (never read)", async () => {
    const store = new MemorySourceMapStore();
    store.addDebugId(PROJECT, DEBUG_ID, { sourceMap: artifactOf("<html>Not Found</html>") });
    expect(reasons(await symbolicate(withDebugId(), PROJECT, store, workers))).toEqual(["no_debug_id", ...Array(4).fill("map_invalid")]);

    // (Other bytes than the map the worker has already parsed: artifacts are content-addressed.)
    const huge = artifactOf(JSON.stringify({ ...map, file: "huge.js" }), SOURCE_MAP_LIMITS.maxMapBytes + 1);
    const hugeStore = new MemorySourceMapStore();
    hugeStore.addDebugId(PROJECT, DEBUG_ID, { sourceMap: huge });
    expect(reasons(await symbolicate(withDebugId(), PROJECT, hugeStore, workers))).toEqual(["no_debug_id", ...Array(4).fill("map_invalid")]);
    expect(huge.reads).toBe(0);
  });

  it("map_invalid, not a failed event: the map (or the minified file) deleted between finding it and reading it", async () => {
    const gone = { ...artifactOf(JSON.stringify({ ...map, file: "deleted.js" })), read: () => Promise.reject(new ArtifactGoneError("artifact is gone")) };
    const store = new MemorySourceMapStore();
    store.addDebugId(PROJECT, DEBUG_ID, { sourceMap: gone });
    expect(reasons(await symbolicate(withDebugId(), PROJECT, store, workers))).toEqual(["no_debug_id", ...Array(4).fill("map_invalid")]);
    const minifiedGone = new MemorySourceMapStore();
    minifiedGone.addDebugId(PROJECT, DEBUG_ID, { minifiedSource: { ...gone, sha1: "f".repeat(40) } });
    expect(reasons(await symbolicate(withDebugId(), PROJECT, minifiedGone, workers))).toEqual(["no_debug_id", ...Array(4).fill("no_map_for_file")]);
  });

  it("asks the store once per file", async () => {
    const store = storeWithMap(map);
    await symbolicate(withDebugId(), PROJECT, store, workers);
    expect(store.calls).toEqual([`debugId ${DEBUG_ID}`]);
  });
});

describe("symbolicate, by release + dist + URL", () => {
  const RELEASE = "1.4.0";
  const withRelease = (dist?: string) => browserOccurrence(stack, { release: RELEASE, dist });

  it("follows the minified file's sourceMappingURL comment, both uploaded with --url-prefix '~/assets'", async () => {
    expect(bundle.code.trimEnd().endsWith("//# sourceMappingURL=app.js.map")).toBe(true);
    const store = new MemorySourceMapStore();
    store.addReleaseFile(PROJECT, RELEASE, null, "~/assets/app.js", "minified_source", artifactOf(bundle.code));
    store.addReleaseFile(PROJECT, RELEASE, null, "~/assets/app.js.map", "source_map", artifactOf(JSON.stringify(map)));
    const mapped = await symbolicate(withRelease(), PROJECT, store, workers);
    expect(mapped.exceptions[0].frames.slice(2).map((frame) => frame.function)).toEqual(["renderPrice", "formatPrice", "toFixed2"]);
    // The URL as the frame gives it first, then its `~/` form; the map's URL resolved beside the file.
    expect(store.calls.filter((call) => call.includes("assets/app.js"))).toEqual([`url ${SCRIPT_URL}`, "url ~/assets/app.js", "url ~/assets/app.js.map"]);
  });

  it("follows the manifest's sourcemap header, per dist", async () => {
    const store = new MemorySourceMapStore();
    store.addReleaseFile(
      PROJECT,
      RELEASE,
      "web",
      SCRIPT_URL,
      "minified_source",
      artifactOf(bundle.code.replace(/\/\/# sourceMappingURL=.*/, "")),
      "../maps/app.map",
    );
    store.addReleaseFile(PROJECT, RELEASE, "web", "https://cdn.example/maps/app.map", "source_map", artifactOf(JSON.stringify(map)));
    expect(reasons(await symbolicate(withRelease("web"), PROJECT, store, workers))).toEqual(["no_map_for_file", ...Array(4).fill("mapped")]);
    // Another dist of the release has no bundle.
    expect(reasons(await symbolicate(withRelease("mobile"), PROJECT, store, workers))).toEqual(Array(5).fill("bundle_not_found"));
  });

  it("bundle_not_found before the release's upload, no_map_for_file when the release lacks the file or its map", async () => {
    const store = new MemorySourceMapStore();
    expect(reasons(await symbolicate(withRelease(), PROJECT, store, workers))).toEqual(Array(5).fill("bundle_not_found"));
    store.addReleaseFile(PROJECT, RELEASE, null, "~/other.js", "minified_source", artifactOf("x"));
    expect(reasons(await symbolicate(withRelease(), PROJECT, store, workers))).toEqual(Array(5).fill("no_map_for_file"));
    store.addReleaseFile(PROJECT, RELEASE, null, "~/assets/app.js", "minified_source", artifactOf(bundle.code));
    expect(reasons(await symbolicate(withRelease(), PROJECT, store, workers))).toEqual(Array(5).fill("no_map_for_file"));
    store.addReleaseFile(PROJECT, RELEASE, null, "~/assets/app.js.map", "source_map", artifactOf(JSON.stringify(map)));
    expect(reasons(await symbolicate(withRelease(), PROJECT, store, workers))).toEqual(["no_map_for_file", ...Array(4).fill("mapped")]);
    // Another project's upload of the same release is never read.
    expect(reasons(await symbolicate(withRelease(), OTHER_PROJECT, store, workers))).toEqual(Array(5).fill("bundle_not_found"));
  });

  it("falls back to the release when the debug id finds no bundle", async () => {
    const store = new MemorySourceMapStore();
    store.addReleaseFile(PROJECT, RELEASE, null, "~/assets/app.js", "minified_source", artifactOf(bundle.code));
    store.addReleaseFile(PROJECT, RELEASE, null, "~/assets/app.js.map", "source_map", artifactOf(JSON.stringify(map)));
    const event = browserOccurrence(stack, { release: RELEASE, debugImages: [{ code_file: SCRIPT_URL, debug_id: DEBUG_ID }] });
    expect(reasons(await symbolicate(event, PROJECT, store, workers))).toEqual(["no_map_for_file", ...Array(4).fill("mapped")]);
  });
});

describe("what symbolicate leaves alone", () => {
  it("frames of other platforms: no symbolication field, the occurrence returned as it was", async () => {
    const event = { ...withDebugId(), platform: "python" };
    expect(hasSymbolicationCandidates(event)).toBe(false);
    expect(await symbolicate(event, PROJECT, storeWithMap(map), workers)).toBe(event);
  });

  it("a native frame inside a JavaScript stack, and JavaScript frames without a position", async () => {
    const event = withDebugId();
    const frames = event.exceptions[0].frames;
    const native: NormalizedFrame = { ...frames[4], platform: "native", filename: SCRIPT_URL };
    const noPosition: NormalizedFrame = { ...frames[4], colno: null };
    const mixed = { ...event, exceptions: [{ ...event.exceptions[0], frames: [...frames.slice(0, 4), native, noPosition] }] };
    const mapped = await symbolicate(mixed, PROJECT, storeWithMap(map), workers);
    expect(mapped.exceptions[0].frames.slice(4)).toEqual([native, noPosition]);
  });

  it("hasSymbolicationCandidates: JavaScript frames with a position and a debug image or a release", () => {
    expect(hasSymbolicationCandidates(withDebugId())).toBe(true);
    expect(hasSymbolicationCandidates(browserOccurrence(stack, { release: "1.0.0" }))).toBe(true);
    expect(hasSymbolicationCandidates(browserOccurrence(stack))).toBe(false);
  });
});
