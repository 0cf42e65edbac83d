import { AnyMap, decodedMappings, isIgnored, originalPositionFor, sourceContentFor, type TraceMap } from "@jridgewell/trace-mapping";
import { SOURCE_MAP_LIMITS, type SourceMapLimits } from "./source-map-limits";

/**
 * A source map from its bytes to answers, on the worker thread (source-map-worker.ts): checked
 * against SOURCE_MAP_LIMITS before the parser allocates anything in proportion to what the map
 * claims, parsed by `@jridgewell/trace-mapping` (plain and sectioned maps alike, through AnyMap),
 * its mappings decoded once so that every later lookup is a binary search.
 */

/** A map's bytes as stored (`json`), or the ASCII of an inline `data:` URL found in a minified file. */
export type MapInput = { kind: "json"; bytes: Uint8Array } | { kind: "dataUrl"; bytes: Uint8Array };

/** The map cannot be used: not JSON, not a source map, over a cap, or refused by the parser. */
export class MapInvalidError extends Error {}

export interface ParsedSourceMap {
  map: TraceMap;
  /** The map's own debug id (`debugId`, or the older `debug_id`), lower-cased; null when it names none. */
  debugId: string | null;
  /** Bytes of the JSON it was parsed from: what the cache counts. */
  bytes: number;
  /** Each source's lines, split the first time a frame needs context from it (null: no content). */
  lines: Map<string, string[] | null>;
}

/** A generated position as a stack trace gives it: 1-based line, 0-based column (trace-mapping's needle). */
export interface GeneratedPosition {
  line: number;
  column: number;
}

export interface SourceContext {
  pre: string[];
  line: string;
  post: string[];
}

/** Where a generated position came from; null when the map has no mapping (with a source) there. */
export type OriginalPosition = {
  /** The source as the map names it (sourceRoot applied). */
  source: string;
  /** 1-based. */
  line: number;
  /** 0-based. */
  column: number;
  /** The original identifier at the position, from the map's `names`. */
  name: string | null;
  /** The source is in the map's `ignoreList` (or `x_google_ignoreList`): vendor code. */
  ignored: boolean;
  /** Null when the map has no content for the source, or none for that line. */
  context: SourceContext | null;
} | null;

export function parseSourceMap(input: MapInput, limits: SourceMapLimits = SOURCE_MAP_LIMITS): ParsedSourceMap {
  const bytes = input.kind === "json" ? input.bytes : decodeDataUrl(input.bytes, limits);
  if (bytes.byteLength > limits.maxMapBytes) throw new MapInvalidError(`the map is ${bytes.byteLength} bytes, over the ${limits.maxMapBytes} byte cap`);
  let json: unknown;
  try {
    // A map may start with the XSSI guard `)]}'` (the source map specification allows it).
    json = JSON.parse(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        .toString("utf8")
        .replace(/^\)\]\}'[^\n]*\n/, ""),
    );
  } catch {
    throw new MapInvalidError("the map is not JSON");
  }
  const shape = checkShape(json, 0, 0, limits);
  if (shape.lines > limits.maxGeneratedLines)
    throw new MapInvalidError(`the map spans ${shape.lines} generated lines, over the ${limits.maxGeneratedLines} cap`);
  if (shape.segments > limits.maxSegments) throw new MapInvalidError(`the map holds ${shape.segments} mappings, over the ${limits.maxSegments} cap`);
  let map: TraceMap;
  try {
    map = new AnyMap(json as ConstructorParameters<typeof AnyMap>[0]);
    // Decode now, once: the cost belongs to the parse (cached), not to the first lookup.
    decodedMappings(map);
  } catch (error) {
    throw new MapInvalidError(`the parser refused the map: ${error instanceof Error ? error.message : String(error)}`);
  }
  const record = json as Record<string, unknown>;
  const debugId = typeof record.debugId === "string" ? record.debugId : typeof record.debug_id === "string" ? record.debug_id : null;
  return { map, debugId: debugId?.toLowerCase() ?? null, bytes: bytes.byteLength, lines: new Map() };
}

export function originalPositions(parsed: ParsedSourceMap, positions: GeneratedPosition[], limits: SourceMapLimits = SOURCE_MAP_LIMITS): OriginalPosition[] {
  return positions.map((position) => {
    if (!Number.isSafeInteger(position.line) || position.line < 1 || !Number.isSafeInteger(position.column) || position.column < 0) return null;
    const found = originalPositionFor(parsed.map, position);
    if (found.source === null) return null;
    return {
      source: found.source,
      line: found.line,
      column: found.column,
      name: found.name,
      ignored: isIgnored(parsed.map, found.source),
      context: contextAt(parsed, found.source, found.line, found.column, limits),
    };
  });
}

function contextAt(parsed: ParsedSourceMap, source: string, line: number, column: number, limits: SourceMapLimits): SourceContext | null {
  let lines = parsed.lines.get(source);
  if (lines === undefined) {
    const content = sourceContentFor(parsed.map, source);
    lines = typeof content === "string" ? splitSourceLines(content) : null;
    parsed.lines.set(source, lines);
  }
  if (lines === null) return null;
  const known = lines;
  return sourceContext((index) => known[index], lines.length, line, column, limits);
}

/** A source's content as lines, the way context lines count them. */
export const splitSourceLines = (content: string) => content.split(/\r\n|\r|\n/);

/**
 * The context of a 1-based `line` of a source of `lineCount` lines, `lineAt` giving a 0-based line
 * (only those within `contextLines` of it are asked for); null past the source's end.
 */
export function sourceContext(
  lineAt: (index: number) => string,
  lineCount: number,
  line: number,
  column: number,
  limits: SourceMapLimits,
): SourceContext | null {
  if (line > lineCount) return null;
  const at = line - 1;
  const cut = (text: string) => text.slice(0, limits.maxContextLineLength);
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => cut(lineAt(from + i)));
  const own = lineAt(at);
  // A long line is cut around the column, where the frame points.
  const start =
    own.length > limits.maxContextLineLength ? Math.max(0, Math.min(column - limits.maxContextLineLength / 2, own.length - limits.maxContextLineLength)) : 0;
  return {
    pre: range(Math.max(0, at - limits.contextLines), at),
    line: own.slice(start, start + limits.maxContextLineLength),
    post: range(at + 1, Math.min(lineCount, at + 1 + limits.contextLines)),
  };
}

interface Shape {
  /** Generated lines the map reaches, counting the offsets of the sections it sits in. */
  lines: number;
  segments: number;
}

const MAX_SECTION_DEPTH = 4;

/** The cheap checks that bound what the parser will allocate, before it runs. */
function checkShape(json: unknown, lineOffset: number, depth: number, limits: SourceMapLimits): Shape {
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new MapInvalidError("the map is not a JSON object");
  const map = json as Record<string, unknown>;
  if (map.version !== undefined && map.version !== 3) throw new MapInvalidError(`unsupported source map version ${JSON.stringify(map.version)}`);
  if ("sections" in map) {
    if (!Array.isArray(map.sections)) throw new MapInvalidError("`sections` is not a list");
    if (depth >= MAX_SECTION_DEPTH) throw new MapInvalidError(`sections nested deeper than ${MAX_SECTION_DEPTH}`);
    const total: Shape = { lines: lineOffset, segments: 0 };
    for (const section of map.sections as unknown[]) {
      const { offset, map: inner } = (section ?? {}) as { offset?: { line?: unknown; column?: unknown }; map?: unknown };
      const line = offset?.line;
      const column = offset?.column;
      if (!isCount(line) || !isCount(column)) throw new MapInvalidError("a section's offset is not a pair of non-negative whole numbers");
      // Checked before adding: a section at line 10^9 must not be walked into (the flattener fills every line up to it).
      if (lineOffset + line > limits.maxGeneratedLines)
        throw new MapInvalidError(`a section starts at generated line ${lineOffset + line}, over the ${limits.maxGeneratedLines} cap`);
      if (inner === undefined) throw new MapInvalidError("a section refers to its map by `url`, which is not supported");
      const shape = checkShape(inner, lineOffset + line, depth + 1, limits);
      total.lines = Math.max(total.lines, shape.lines);
      total.segments += shape.segments;
      if (total.lines > limits.maxGeneratedLines || total.segments > limits.maxSegments) return total;
    }
    return total;
  }
  if (typeof map.mappings !== "string") throw new MapInvalidError("`mappings` is not a string");
  if (!Array.isArray(map.sources)) throw new MapInvalidError("`sources` is not a list");
  if (map.names !== undefined && !Array.isArray(map.names)) throw new MapInvalidError("`names` is not a list");
  const { mappings } = map;
  let lines = 1;
  let segments = mappings.length > 0 ? 1 : 0;
  for (let i = 0; i < mappings.length; i++) {
    const code = mappings.charCodeAt(i);
    if (code === 59 /* ; */) {
      lines++;
      segments++;
    } else if (code === 44 /* , */) segments++;
  }
  return { lines: lineOffset + lines, segments };
}

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/**
 * An inline map: `data:application/json;base64,…` (or percent-encoded). Its decoded size is checked
 * against the cap before decoding.
 */
function decodeDataUrl(ascii: Uint8Array, limits: SourceMapLimits): Uint8Array {
  const text = Buffer.from(ascii.buffer, ascii.byteOffset, ascii.byteLength);
  const comma = text.indexOf(",");
  if (!text.subarray(0, 5).equals(Buffer.from("data:")) || comma === -1) throw new MapInvalidError("the inline map is not a data: URL");
  const meta = text.subarray(5, comma).toString("latin1").toLowerCase();
  const mediaType = meta.split(";")[0];
  if (mediaType !== "" && !mediaType.includes("json") && mediaType !== "text/plain") throw new MapInvalidError(`the inline map has media type ${mediaType}`);
  const body = text.subarray(comma + 1);
  if (meta.split(";").includes("base64")) {
    if ((body.byteLength * 3) / 4 > limits.maxMapBytes) throw new MapInvalidError(`the inline map is over the ${limits.maxMapBytes} byte cap`);
    return Buffer.from(body.toString("latin1"), "base64");
  }
  if (body.byteLength > limits.maxMapBytes) throw new MapInvalidError(`the inline map is over the ${limits.maxMapBytes} byte cap`);
  try {
    return Buffer.from(decodeURIComponent(body.toString("latin1")));
  } catch {
    throw new MapInvalidError("the inline map's percent-encoding is broken");
  }
}
