import type { FrameSymbolication, NormalizedFrame } from "../../shared/occurrence.types";
import type { OriginalPosition } from "./parsed-source-map";

/*
 * What each value of a frame's `symbolication` means (FRAME_SYMBOLICATION in occurrence.types.ts):
 *
 * - `mapped`: the map had a mapping at the frame's position and content for its source: the frame's
 *   file, line, column, function and context lines are the original ones; the minified frame is in `raw`.
 * - `no_debug_id`: the event gives the frame's file no debug id (no `sourcemap` debug image whose
 *   `code_file` is the frame's `absPath` or `filename`) and carries no release to look the file up
 *   by URL instead: `sentry-cli sourcemaps inject` did not run on that file, or the SDK lost the id.
 * - `bundle_not_found`: the frame's debug id is in no artifact bundle uploaded for the event's
 *   project; or, without a debug id, no bundle was uploaded for the event's release (+ dist). The
 *   event came before its upload, or the upload went to another project.
 * - `no_map_for_file`: a bundle was found — the debug id's, or the release's — but no source map
 *   for this file: the debug id has only its minified file (and no inline map in it); no file of the
 *   release is stored under any of the frame URL's names (`~/` rules, artifact-urls.ts); the minified
 *   file names no map (no `sourcemap` header, no `sourceMappingURL` comment); or the map it names is
 *   not in the release.
 * - `no_mapping_at_position`: the map was read, but has no mapping with a source at the frame's line
 *   and column (a line past the map's end, a segment without a source): the map is not the one the
 *   file was built with, or the frame is in code the bundler generated.
 * - `source_missing`: the position mapped — file, line, column and function are the original ones,
 *   the minified frame is in `raw` — but the map has no `sourcesContent` for that source (absent or
 *   null) or the content has no such line, so there are no context lines.
 * - `map_invalid`: the map cannot be used: over the size cap, not JSON, not a source map, more
 *   generated lines or mappings than the caps (SOURCE_MAP_LIMITS), refused by the parser, declaring a
 *   debug id other than the one it was found by, or it stopped the symbolicator (its worker ran out
 *   of memory or time on it).
 */

/** A frame whose map was not found or not usable: as sent, with the reason. */
export function unmappedFrame(frame: NormalizedFrame, reason: Exclude<FrameSymbolication, "mapped" | "source_missing">): NormalizedFrame {
  return { ...frame, symbolication: reason };
}

/**
 * The frame at its original position. `functionName` is the original name of the function the frame
 * is in (symbolicate.ts takes it from the caller's call site); null keeps the minified one.
 */
export function mappedFrame(frame: NormalizedFrame, position: NonNullable<OriginalPosition>, functionName: string | null): NormalizedFrame {
  return {
    ...frame,
    filename: displayName(position.source),
    absPath: position.source,
    lineno: position.line,
    colno: position.column + 1,
    function: functionName ?? frame.function,
    contextLine: position.context?.line ?? null,
    // Copies: the symbolicator reuses one answer for every event at the same position.
    preContext: [...(position.context?.pre ?? [])],
    postContext: [...(position.context?.post ?? [])],
    inApp: position.ignored ? false : frame.inApp,
    raw: { filename: frame.filename, function: frame.function, lineno: frame.lineno, colno: frame.colno },
    symbolication: position.context === null ? "source_missing" : "mapped",
  };
}

/**
 * The source's name as a path to read: a bundler's `webpack://<name>/` prefix and leading `./`,
 * `../` removed (`../src/price.ts` → `src/price.ts`); `absPath` keeps the name the map gives.
 */
export function displayName(source: string): string {
  return source.replace(/^webpack:\/\/[^/]*\//, "").replace(/^(\.\.?\/)+/, "") || source;
}
