import { deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * A source map's index: the map cut into parts that a lookup reads a few of, so that symbolicating
 * an event against a 20 MB map it has not seen reads and decodes kilobytes, not the whole map.
 * Built once per uploaded map on the symbolicator's worker (map-index-build.ts), stored per part
 * (`source_map_index_parts`), read on the main thread (indexed-map-lookup.ts). Every part is
 * raw-deflated JSON:
 *   - part 0, the header (MapIndexHeader);
 *   - parts 1…P, the pages: the map's mapping segments in generated order, P of them, each page's
 *     segments encoded as a `mappings` string of their own by `@jridgewell/sourcemap-codec` (its
 *     source, line and name fields starting from zero), with the names its segments use;
 *   - then the blocks: each source's content as lines, a few hundred at a time.
 */
export const MAP_INDEX_VERSION = 1;

export const MAP_INDEX_LIMITS = {
  /** Segments per page: a frame's lookup decodes one page (≈ 5 KB of VLQ, ≈ 0.25 ms). */
  pageSegments: 1024,
  /** Lines per block of source content, and the bytes past which a block ends early. */
  blockLines: 200,
  blockBytes: 256 * 1024,
  /**
   * The header and a page are parsed on the main thread: a map whose header or page passes these
   * (millions of sources, megabyte-long names) is not indexed; it is parsed whole on the worker.
   */
  maxHeaderBytes: 2 * 2 ** 20,
  maxPageBytes: 1 * 2 ** 20,
} as const;

export type MapIndexLimits = { readonly [K in keyof typeof MAP_INDEX_LIMITS]: number };

export interface MapIndexHeader {
  v: typeof MAP_INDEX_VERSION;
  /** The map's own debug id, lower-cased (as ParsedSourceMap.debugId). */
  debugId: string | null;
  /** The sources as trace-mapping resolves them (sourceRoot applied). */
  sources: string[];
  /** Per source: in the map's ignore list (as trace-mapping's isIgnored answers for its name). */
  ignored: boolean[];
  /** Per page, its first segment's generated position: [line (0-based), column, line, column, …]. */
  pages: number[];
  /** Per source: its content's line count and blocks ([part, first line (0-based)], …), or null without content. */
  content: ({ lines: number; blocks: number[] } | null)[];
}

/** A page: its first generated line (0-based), its segments' `mappings`, the names they index. */
export interface MapIndexPage {
  line: number;
  mappings: string;
  names: string[];
}

/** A block: consecutive lines of one source's content. */
export type MapIndexBlock = string[];

export const pagePart = (page: number) => 1 + page;

/**
 * A part's bytes from its JSON, in an ArrayBuffer of their own: the worker moves them to the main
 * thread, and a small Buffer from zlib may sit in Node's shared pool.
 */
export function encodePart(json: string): Uint8Array {
  return new Uint8Array(deflateRawSync(json));
}

/** A part's value, and the length of its JSON (what a cache of decoded parts counts). */
export function decodePart<T>(bytes: Uint8Array): { value: T; bytes: number } {
  const json = inflateRawSync(bytes);
  return { value: JSON.parse(json.toString("utf8")) as T, bytes: json.length };
}
