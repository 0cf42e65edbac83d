import type { NormalizedFrame, NormalizedOccurrence } from "../../shared/occurrence.types";

/** Platforms whose frames source maps apply to (the event's, or a frame's own when it differs). */
const JAVASCRIPT_PLATFORMS = new Set(["javascript", "node"]);

export function isJavaScriptFrame(frame: NormalizedFrame, eventPlatform: string): boolean {
  return JAVASCRIPT_PLATFORMS.has(frame.platform ?? eventPlatform);
}

/**
 * A frame symbolication works on: JavaScript, with a file and a line and column to look up. Other
 * JavaScript frames (`[native code]`, `<anonymous>`) have no position in any map and are left as sent,
 * without a `symbolication` field, like frames of other platforms.
 */
export function isSymbolicationCandidate(frame: NormalizedFrame, eventPlatform: string): boolean {
  return isJavaScriptFrame(frame, eventPlatform) && frame.lineno !== null && frame.colno !== null && (frame.absPath ?? frame.filename) !== null;
}

/** Every stack of the occurrence: the exceptions', the top-level one, the threads'. */
export function stacksOf(occurrence: NormalizedOccurrence): NormalizedFrame[][] {
  return [...occurrence.exceptions.map((exception) => exception.frames), occurrence.stacktrace, ...(occurrence.threads ?? []).map((thread) => thread.frames)];
}

/**
 * Whether symbolication could change anything for this occurrence — a JavaScript frame with a
 * position, and a way to find its map (a `sourcemap` debug image, or a release) — so ingest can skip
 * the work, and the store lookups, for every other event. Pure and cheap: no store, no worker.
 */
export function hasSymbolicationCandidates(occurrence: NormalizedOccurrence): boolean {
  const hasDebugIds = (occurrence.debugImages ?? []).some((image) => image.type === "sourcemap" && image.debugId !== null && image.name !== null);
  if (!hasDebugIds && occurrence.release === null) return false;
  return stacksOf(occurrence).some((frames) => frames.some((frame) => isSymbolicationCandidate(frame, occurrence.platform)));
}
