import { encode, type SourceMapSegment } from "@jridgewell/sourcemap-codec";
import { decodedMappings, isIgnored } from "@jridgewell/trace-mapping";
import { encodePart, MAP_INDEX_LIMITS, MAP_INDEX_VERSION, pagePart, type MapIndexHeader, type MapIndexLimits, type MapIndexPage } from "./map-index-format";
import { splitSourceLines, type ParsedSourceMap } from "./parsed-source-map";

/** The parts of a map's index, part 0 first (map-index-format.ts); or why the map is not indexed. */
export type MapIndexBuild = { status: "indexed"; parts: Uint8Array[] } | { status: "unindexed"; reason: string };

/**
 * Cuts a parsed map into its index, on the worker thread (the whole map is decoded here, once per
 * upload). Pages never split a run of segments at one generated position, so the segment a lookup
 * finds in a page is the one trace-mapping finds in the whole map.
 */
export function buildMapIndex(parsed: ParsedSourceMap, limits: MapIndexLimits = MAP_INDEX_LIMITS): MapIndexBuild {
  const { map } = parsed;
  const sources = map.resolvedSources.map((source) => source ?? "");
  const header: MapIndexHeader = {
    v: MAP_INDEX_VERSION,
    debugId: parsed.debugId,
    sources,
    ignored: sources.map((source) => isIgnored(map, source)),
    pages: [],
    content: [],
  };
  const pages: Uint8Array[] = [];
  const pageTooLarge = cutPages(decodedMappings(map), map.names, limits, (page, first) => {
    const json = JSON.stringify(page);
    if (json.length > limits.maxPageBytes) return false;
    header.pages.push(first[0], first[1]);
    pages.push(encodePart(json));
    return true;
  });
  if (pageTooLarge) return { status: "unindexed", reason: `a page of its mappings is over ${limits.maxPageBytes} bytes (long names)` };

  const blocks: Uint8Array[] = [];
  const blockBase = pagePart(pages.length);
  header.content = sources.map((_, index) => {
    const content = map.sourcesContent?.[index];
    if (typeof content !== "string") return null;
    const lines = splitSourceLines(content);
    const starts: number[] = [];
    for (let start = 0; start < lines.length;) {
      let end = start;
      let bytes = 0;
      while (end < lines.length && end - start < limits.blockLines && (end === start || bytes + lines[end].length <= limits.blockBytes)) {
        bytes += lines[end].length;
        end++;
      }
      starts.push(blockBase + blocks.length, start);
      blocks.push(encodePart(JSON.stringify(lines.slice(start, end))));
      start = end;
    }
    return { lines: lines.length, blocks: starts };
  });
  const headerJson = JSON.stringify(header);
  if (headerJson.length > limits.maxHeaderBytes)
    return { status: "unindexed", reason: `its index header is over ${limits.maxHeaderBytes} bytes (many sources)` };
  return { status: "indexed", parts: [encodePart(headerJson), ...pages, ...blocks] };
}

/**
 * Calls `emit` with each page of about `pageSegments` segments and its first segment's position;
 * true when `emit` refused one (too large).
 */
function cutPages(
  lines: Readonly<SourceMapSegment[][]>,
  names: readonly string[],
  limits: MapIndexLimits,
  emit: (page: MapIndexPage, first: [number, number]) => boolean,
): boolean {
  let page: { line: number; first: [number, number]; lines: SourceMapSegment[][]; names: string[]; nameIndex: Map<number, number>; count: number } | null =
    null;
  let last: [number, number] | null = null;
  const close = () => {
    if (page === null) return true;
    const done = emit({ line: page.line, mappings: encode(page.lines), names: page.names }, page.first);
    page = null;
    return done;
  };
  for (let line = 0; line < lines.length; line++) {
    for (const segment of lines[line]) {
      const samePosition = last !== null && last[0] === line && last[1] === segment[0];
      if (page !== null && page.count >= limits.pageSegments && !samePosition && !close()) return true;
      page ??= { line, first: [line, segment[0]], lines: [], names: [], nameIndex: new Map(), count: 0 };
      while (page.lines.length <= line - page.line) page.lines.push([]);
      page.lines[line - page.line].push(segment.length === 5 ? [segment[0], segment[1], segment[2], segment[3], localName(page, names, segment[4])] : segment);
      page.count++;
      last = [line, segment[0]];
    }
  }
  return !close();
}

function localName(page: { names: string[]; nameIndex: Map<number, number> }, names: readonly string[], index: number): number {
  let local = page.nameIndex.get(index);
  if (local === undefined) {
    local = page.names.length;
    page.names.push(names[index] ?? "");
    page.nameIndex.set(index, local);
  }
  return local;
}
