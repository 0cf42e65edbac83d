import { decode } from "@jridgewell/sourcemap-codec";
import { presortedDecodedMap, traceSegment, type TraceMap } from "@jridgewell/trace-mapping";
import { setImmediate as nextTurn } from "node:timers/promises";
import { decodePart, MAP_INDEX_VERSION, pagePart, type MapIndexBlock, type MapIndexHeader, type MapIndexPage } from "./map-index-format";
import type { Logger } from "../logger";
import type { MapIndexer } from "./map-indexing";
import { ParsedMapCache } from "./parsed-map-cache";
import { sourceContext, type GeneratedPosition, type MapInput, type OriginalPosition } from "./parsed-source-map";
import { SOURCE_MAP_LIMITS, type SourceMapLimits } from "./source-map-limits";
import type { MapIndexParts } from "./source-map-store";
import type { MapAnswer, MapLookup } from "./source-map-workers";

type Header = MapIndexHeader & { bytes: number; sourceIndex: Map<string, number> };
type Page = { line: number; map: TraceMap; names: string[]; bytes: number };
type Block = { lines: MapIndexBlock; bytes: number };
type Part = Header | Page | Block;

/**
 * Lookups answered from a map's index (map-index-format.ts) where the store has one: the header,
 * the pages the positions fall in and the blocks their context lines are in — kilobytes, decoded
 * on the main thread a part per turn of the event loop and kept in a bounded cache. A map without an
 * index (uploaded before indexes, inline, or too irregular to index) goes to `fallback`, the
 * worker that parses whole maps. Answers are the ones the whole map gives (map-index-build.ts).
 * A stored map found without an index is indexed then, in the background, where the store can
 * save one (`MapIndexParts.save`): maps uploaded before indexes existed get theirs on first use.
 */
export class IndexedMapLookup implements MapLookup {
  private readonly cache: ParsedMapCache<Part>;
  private readonly answers: ParsedMapCache<{ bytes: number; position: OriginalPosition }>;

  constructor(
    private readonly fallback: MapLookup & MapIndexer,
    private readonly limits: SourceMapLimits = SOURCE_MAP_LIMITS,
    private readonly logger?: Logger,
  ) {
    this.cache = new ParsedMapCache<Part>(limits.indexCacheBytes);
    this.answers = new ParsedMapCache(limits.answerCacheBytes);
  }

  async lookup(key: string, load: () => Promise<MapInput>, positions: GeneratedPosition[], index?: MapIndexParts): Promise<MapAnswer> {
    if (index === undefined) return this.fallback.lookup(key, load, positions);
    const known = this.known(key, positions);
    if (known !== null) return known;
    const answer = await this.fromIndex(key, index, positions);
    if (answer === null) {
      const whole = await this.fallback.lookup(key, load, positions);
      if (index.save !== undefined) this.indexLater(key, load, index.save);
      return whole;
    }
    if (answer.status === "ok")
      answer.positions.forEach((position, i) => this.answers.set(answerKey(key, positions[i]), { bytes: sizeOf(position), position }));
    return answer;
  }

  /** Maps being indexed, or found unindexable (bounded): each is tried once per process. */
  private readonly indexing = new Set<string>();

  private indexLater(key: string, load: () => Promise<MapInput>, save: (parts: Uint8Array[]) => Promise<void>) {
    if (this.indexing.has(key)) return;
    if (this.indexing.size >= MAX_INDEXING_REMEMBERED) this.indexing.clear();
    this.indexing.add(key);
    void (async () => {
      const build = await this.fallback.index(key, load);
      if (build.status === "indexed") await save(build.parts);
      else this.logger?.info("source map not indexed; events read it whole", { key, reason: build.reason });
    })().catch((error: unknown) => {
      this.indexing.delete(key);
      this.logger?.warn("source map index not built", { key, err: error });
    });
  }

  /** The answer from earlier lookups at the same positions, when every one is remembered. */
  private known(key: string, positions: GeneratedPosition[]): MapAnswer | null {
    const header = this.cache.get(`${key}#0`) as Header | undefined;
    if (header === undefined) return null;
    const found: OriginalPosition[] = [];
    for (const position of positions) {
      const answer = this.answers.get(answerKey(key, position));
      if (answer === undefined) return null;
      found.push(answer.position);
    }
    return { status: "ok", debugId: header.debugId, positions: found };
  }

  /** Null when the map has no (complete) index. */
  private async fromIndex(key: string, index: MapIndexParts, positions: GeneratedPosition[]): Promise<MapAnswer | null> {
    const header = (await this.parts(key, index, [0], decodeHeader)).get(0);
    if (header === undefined) return null;
    const pageOf = positions.map((position) => (isPosition(position) ? findPage(header.pages, position.line - 1, position.column) : -1));
    const pages = await this.parts(key, index, pageOf.filter((page) => page >= 0).map(pagePart), decodePage);
    const found = positions.map((position, i) => {
      if (pageOf[i] < 0) return null;
      const page = pages.get(pagePart(pageOf[i]));
      if (page === undefined) return undefined;
      const segment = traceSegment(page.map, position.line - 1 - page.line, position.column);
      if (segment === null || segment.length === 1) return null;
      return { source: header.sources[segment[1]], line: segment[2] + 1, column: segment[3], name: segment.length === 5 ? page.names[segment[4]] : null };
    });
    if (found.includes(undefined)) return null;

    // Context comes from the first source of the name, as trace-mapping's sourceContentFor reads it.
    const contentOf = (source: string) => header.content[header.sourceIndex.get(source)!] ?? null;
    const wanted = new Set<number>();
    for (const position of found) {
      const content = position ? contentOf(position.source) : null;
      if (!position || !content || position.line > content.lines) continue;
      const from = Math.max(0, position.line - 1 - this.limits.contextLines);
      const to = Math.min(content.lines - 1, position.line - 1 + this.limits.contextLines);
      for (let line = from; line <= to; line = blockEnd(content.blocks, line)) wanted.add(content.blocks[blockAt(content.blocks, line)]);
    }
    const blocks = await this.parts(key, index, [...wanted], decodeBlock);
    if (blocks.size < wanted.size) return null;

    const answers: OriginalPosition[] = found.map((position) => {
      if (!position) return null;
      const content = contentOf(position.source);
      const lineAt = (line: number) => {
        const at = blockAt(content!.blocks, line);
        return blocks.get(content!.blocks[at])!.lines[line - content!.blocks[at + 1]];
      };
      return {
        ...position,
        ignored: header.ignored[header.sourceIndex.get(position.source)!],
        context: content ? sourceContext(lineAt, content.lines, position.line, position.column, this.limits) : null,
      };
    });
    return { status: "ok", debugId: header.debugId, positions: answers };
  }

  /** The decoded parts among `numbers`, from the cache or read and decoded (one per turn); absent or unreadable ones are left out. */
  private async parts<T extends Part>(key: string, index: MapIndexParts, numbers: number[], decodeOne: (bytes: Uint8Array) => T): Promise<Map<number, T>> {
    const found = new Map<number, T>();
    const missing: number[] = [];
    for (const number of new Set(numbers)) {
      const cached = this.cache.get(`${key}#${number}`) as T | undefined;
      if (cached !== undefined) found.set(number, cached);
      else missing.push(number);
    }
    if (missing.length === 0) return found;
    for (const [number, bytes] of await index.read(missing)) {
      let part: T;
      try {
        part = decodeOne(bytes);
      } catch (error) {
        // A part this version cannot read (damaged, or written by a newer version): as if absent, so the map is read whole.
        this.logger?.warn("source map index part unreadable", { key, part: number, err: error });
        continue;
      }
      this.cache.set(`${key}#${number}`, part);
      found.set(number, part);
      await nextTurn();
    }
    return found;
  }
}

export function decodeHeader(bytes: Uint8Array): Header {
  const { value, bytes: size } = decodePart<MapIndexHeader>(bytes);
  if (value.v !== MAP_INDEX_VERSION) throw new Error(`map index version ${String(value.v)} is not ${MAP_INDEX_VERSION}`);
  const sourceIndex = new Map<string, number>();
  value.sources.forEach((source, i) => {
    if (!sourceIndex.has(source)) sourceIndex.set(source, i);
  });
  return { ...value, bytes: size, sourceIndex };
}

export function decodePage(bytes: Uint8Array): Page {
  const { value, bytes: size } = decodePart<MapIndexPage>(bytes);
  // The page's lines from its first: a map of its own, searched by trace-mapping as the whole map would be.
  const map = presortedDecodedMap({ version: 3, sources: [], names: [], mappings: decode(value.mappings) });
  return { line: value.line, map, names: value.names, bytes: size };
}

export function decodeBlock(bytes: Uint8Array): Block {
  const { value, bytes: size } = decodePart<MapIndexBlock>(bytes);
  return { lines: value, bytes: size };
}

const MAX_INDEXING_REMEMBERED = 10_000;

const answerKey = (key: string, position: GeneratedPosition) => `${key}@${position.line}:${position.column}`;

/** What an answer holds, in characters (with a little for the object itself). */
function sizeOf(position: OriginalPosition): number {
  if (position === null) return 32;
  const context = position.context;
  const lines = context === null ? 0 : context.line.length + [...context.pre, ...context.post].reduce((sum, line) => sum + line.length, 0);
  return 128 + position.source.length + (position.name?.length ?? 0) + lines;
}

const isPosition = (position: GeneratedPosition) =>
  Number.isSafeInteger(position.line) && position.line >= 1 && Number.isSafeInteger(position.column) && position.column >= 0;

/** The last page whose first segment is at or before (line, column); -1 before the first. `pages` is flat [line, column, …]. */
function findPage(pages: number[], line: number, column: number): number {
  let low = 0;
  let high = pages.length / 2 - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const before = pages[2 * mid] < line || (pages[2 * mid] === line && pages[2 * mid + 1] <= column);
    if (before) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** The offset in `blocks` (flat [part, first line, …]) of the block holding `line`. */
function blockAt(blocks: number[], line: number): number {
  let low = 0;
  let high = blocks.length / 2 - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (blocks[2 * mid + 1] <= line) low = mid;
    else high = mid - 1;
  }
  return 2 * low;
}

/** The first line after the block holding `line`. */
function blockEnd(blocks: number[], line: number): number {
  const at = blockAt(blocks, line);
  return at + 3 < blocks.length ? blocks[at + 3] : Number.MAX_SAFE_INTEGER;
}
