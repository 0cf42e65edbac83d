import type { NormalizedFrame, NormalizedOccurrence } from "../../shared/occurrence.types";
import { unmappedFrame } from "./frame-symbolication";
import { isSymbolicationCandidate, stacksOf } from "./symbolication-candidates";

/** The event's `sourcemap` debug images: code_file → debug id (lower case, as bundles index them). */
export function sourceMapDebugIds(occurrence: NormalizedOccurrence): Map<string, string> {
  const debugIds = new Map<string, string>();
  for (const image of occurrence.debugImages ?? []) {
    if (image.type === "sourcemap" && image.name !== null && image.debugId !== null) debugIds.set(image.name, image.debugId.toLowerCase());
  }
  return debugIds;
}

export function frameDebugId(frame: NormalizedFrame, debugIds: Map<string, string>): string | undefined {
  return (frame.absPath !== null ? debugIds.get(frame.absPath) : undefined) ?? (frame.filename !== null ? debugIds.get(frame.filename) : undefined);
}

/**
 * An event of a project that has no source maps at all, which ingest does not send to the
 * symbolicator: the frames whose file has a debug id say `bundle_not_found` — the build injected
 * ids, the maps were not uploaded (yet) — so the stack trace answers why it is minified. Frames
 * without a debug id are left unmarked: a server's unbundled code with a release needs no map.
 * Pure, for the prepare step.
 */
export function markedWithoutSourceMaps(occurrence: NormalizedOccurrence): NormalizedOccurrence {
  const debugIds = sourceMapDebugIds(occurrence);
  if (debugIds.size === 0) return occurrence;
  const mark = (frames: NormalizedFrame[]) =>
    frames.map((frame) =>
      isSymbolicationCandidate(frame, occurrence.platform) && frameDebugId(frame, debugIds) !== undefined ? unmappedFrame(frame, "bundle_not_found") : frame,
    );
  return {
    ...occurrence,
    exceptions: occurrence.exceptions.map((exception) => ({ ...exception, frames: mark(exception.frames) })),
    stacktrace: mark(occurrence.stacktrace),
    threads: occurrence.threads?.map((thread) => ({ ...thread, frames: mark(thread.frames) })),
  };
}

/** The debug ids of the frames still waiting for their bundle (`bundle_not_found`): once it is uploaded the event is linked (source-map-waits.ts). */
export function debugIdsAwaitingMaps(occurrence: NormalizedOccurrence): string[] {
  const debugIds = sourceMapDebugIds(occurrence);
  if (debugIds.size === 0) return [];
  const waiting = new Set<string>();
  for (const frames of stacksOf(occurrence)) {
    for (const frame of frames) {
      const debugId = frame.symbolication === "bundle_not_found" ? frameDebugId(frame, debugIds) : undefined;
      if (debugId !== undefined) waiting.add(debugId);
    }
  }
  return [...waiting];
}
