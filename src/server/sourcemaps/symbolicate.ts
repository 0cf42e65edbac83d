import type { NormalizedFrame, NormalizedOccurrence } from "../../shared/occurrence.types";
import { frameDebugId, sourceMapDebugIds } from "./awaiting-maps";
import { mappedFrame, unmappedFrame } from "./frame-symbolication";
import { MapReferenceMemo, MapResolver, type MapSource } from "./map-resolution";
import type { GeneratedPosition, OriginalPosition } from "./parsed-source-map";
import type { SourceMapStore } from "./source-map-store";
import type { MapAnswer, MapLookup } from "./source-map-workers";
import { isSymbolicationCandidate, stacksOf } from "./symbolication-candidates";

/** A frame's outcome before the frame is rebuilt: its original position, or the reason it has none. */
type Outcome =
  { position: NonNullable<OriginalPosition> } | { reason: "no_debug_id" | "bundle_not_found" | "no_map_for_file" | "no_mapping_at_position" | "map_invalid" };

/**
 * A new occurrence whose JavaScript frames are mapped to their original source through the
 * project's uploaded source maps (debug id first, then release + dist + URL), each frame saying
 * `mapped` or why not (frame-symbolication.ts); frames of other platforms are untouched. The maps
 * are parsed and read on the symbolicator's worker thread (`maps`); this function only asks the
 * store where they are, once per file.
 *
 * Throws SymbolicatorUnavailableError when the symbolicator cannot take the lookups (queue full,
 * closing): the caller keeps the occurrence as sent.
 */
export async function symbolicate(
  occurrence: NormalizedOccurrence,
  projectId: string,
  store: SourceMapStore,
  maps: MapLookup,
  references: MapReferenceMemo = new MapReferenceMemo(),
): Promise<NormalizedOccurrence> {
  const debugIds = sourceMapDebugIds(occurrence);
  const resolver = new MapResolver(store, { projectId, release: occurrence.release, dist: occurrence.dist ?? null, debugIds }, references);

  // Where each candidate frame's map is; frames are keyed by their place in stacksOf().
  const stacks = stacksOf(occurrence);
  const sources = new Map<NormalizedFrame, Promise<MapSource>>();
  for (const frames of stacks) {
    for (const frame of frames) {
      if (!isSymbolicationCandidate(frame, occurrence.platform)) continue;
      const fileUrl = (frame.absPath ?? frame.filename)!;
      sources.set(frame, resolver.resolve(fileUrl, frameDebugId(frame, debugIds) ?? null));
    }
  }
  if (sources.size === 0) return occurrence;

  // One lookup per map, with all the positions its frames ask for.
  const byKey = new Map<string, { source: Extract<MapSource, { kind: "map" }>; frames: NormalizedFrame[] }>();
  const outcomes = new Map<NormalizedFrame, Outcome>();
  for (const [frame, pending] of sources) {
    const source = await pending;
    if (source.kind === "unmapped") {
      outcomes.set(frame, { reason: source.reason });
      continue;
    }
    const group = byKey.get(source.key) ?? { source, frames: [] };
    group.frames.push(frame);
    byKey.set(source.key, group);
  }
  await Promise.all(
    [...byKey.values()].map(async ({ source, frames }) => {
      const positions: GeneratedPosition[] = frames.map((frame) => ({ line: frame.lineno!, column: frame.colno! - 1 }));
      const answer = await maps.lookup(source.key, source.load, positions, source.index);
      frames.forEach((frame, i) => outcomes.set(frame, outcomeOf(answer, source, i)));
    }),
  );

  const rebuild = (frames: NormalizedFrame[]) =>
    frames.map((frame, i) => {
      const outcome = outcomes.get(frame);
      if (outcome === undefined) return frame;
      if ("reason" in outcome) return unmappedFrame(frame, outcome.reason);
      return mappedFrame(frame, outcome.position, callSiteName(frames[i - 1], outcomes));
    });
  const rebuilt = stacks.map((frames) => rebuild(frames));
  const exceptions = occurrence.exceptions.map((exception, i) => ({ ...exception, frames: rebuilt[i] }));
  const stacktrace = rebuilt[occurrence.exceptions.length];
  const threads = occurrence.threads?.map((thread, i) => ({ ...thread, frames: rebuilt[occurrence.exceptions.length + 1 + i] }));
  return { ...occurrence, exceptions, stacktrace, ...(threads ? { threads } : {}) };
}

function outcomeOf(answer: MapAnswer, source: Extract<MapSource, { kind: "map" }>, index: number): Outcome {
  if (answer.status === "invalid") return { reason: "map_invalid" };
  // A map found by a debug id that declares another one was built for another file: its mappings would lie.
  if (source.debugId !== null && answer.debugId !== null && comparable(answer.debugId) !== comparable(source.debugId)) return { reason: "map_invalid" };
  const position = answer.positions[index];
  return position === null ? { reason: "no_mapping_at_position" } : { position };
}

const comparable = (debugId: string) => debugId.toLowerCase().replace(/-/g, "");

/**
 * The original name of the function a frame is in. A stack position points into the function's
 * body (at the call it made, or the throw), so the map's name at the frame's OWN position is the
 * name of what it called — for `renderPrice` calling `formatPrice(…)` it is `formatPrice`. The name
 * at the CALLER's position is the one that called this function: its own name. So the caller frame
 * (the one before, frames being oldest first) gives the name, as Sentry's JavaScript processor does;
 * the outermost frame, or one whose caller has no named mapping, keeps the name the SDK sent.
 */
function callSiteName(caller: NormalizedFrame | undefined, outcomes: Map<NormalizedFrame, Outcome>): string | null {
  if (caller === undefined) return null;
  const outcome = outcomes.get(caller);
  return outcome !== undefined && "position" in outcome ? outcome.position.name : null;
}
