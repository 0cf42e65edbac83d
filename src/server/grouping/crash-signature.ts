import type { NormalizedFrame } from "../../shared/occurrence.types";
import { normalizeFramePath, normalizeFunction, normalizeModule } from "./path-normalizer";

/**
 * What in a stack identifies the defect, for grouping v2: the crashing in-app frame and the library
 * frames below it (where the error surfaced), not the callers above it. The callers are how the
 * program got there: several routes reaching one bug, a wrapper frame added by a deploy, or a
 * runtime that truncated the stack (Node keeps 10 frames) all change them and none changes the bug.
 *
 * The crashing frame is located by module/file and function, and told apart from another throw in
 * the same function by its source line's text (never its number, which any edit above moves). When
 * the SDK sent no source line, the caller adds the exception's message template instead.
 */
export interface CrashSignature {
  components: string[];
  /** `where|function` of the crashing frame (or the recursion's), for "similar issues". */
  crashFrame: string | null;
  /** False when no frame carried its source line: the message must then tell throws apart. */
  hasSourceLine: boolean;
}

/** How many library frames below the crashing in-app frame still describe the defect. */
const FRAMES_BELOW = 2;
/** The longest recursion cycle recognised, and how often it must repeat to count as recursion. */
const MAX_CYCLE = 6;
const MIN_REPEATS = 3;
const SOURCE_LINE_MAX = 200;

export function frameLocation(frame: NormalizedFrame): string | null {
  const fn = frame.function ? normalizeFunction(frame.function) : "";
  const path = frame.filename ?? frame.absPath;
  const where = frame.module ? normalizeModule(frame.module) : path ? normalizeFramePath(path) : "";
  if (fn === "" && where === "") return null;
  return `${where}|${fn}`;
}

function sourceLine(frame: NormalizedFrame): string | null {
  const line = frame.contextLine?.replace(/\s+/g, " ").trim();
  return line ? line.slice(0, SOURCE_LINE_MAX) : null;
}

/**
 * A recursion at the crashing end (a stack overflow): the frames repeat with a short period. Which
 * frame of the cycle the runtime stopped in, and how deep, vary from event to event: the cycle is
 * described by its frames as a set, in a stable order.
 */
function recursionCycle(locations: (string | null)[]): string[] | null {
  const n = locations.length;
  for (let period = 1; period <= MAX_CYCLE; period++) {
    const span = period * MIN_REPEATS;
    if (span > n) break;
    let repeats = true;
    for (let i = n - 1; i >= n - span + period && repeats; i--) repeats = locations[i] === locations[i - period];
    if (repeats) {
      const cycle = locations.slice(n - period).filter((l): l is string => l !== null);
      return cycle.length > 0 ? [...new Set(cycle)].sort() : null;
    }
  }
  return null;
}

export function crashSignature(frames: NormalizedFrame[]): CrashSignature | null {
  if (frames.length === 0) return null;
  const locations = frames.map(frameLocation);
  const cycle = recursionCycle(locations);
  if (cycle) return { components: cycle.map((l) => `recursion:${l}`), crashFrame: cycle[0], hasSourceLine: true };

  let crash = -1;
  for (let i = frames.length - 1; i >= 0 && crash < 0; i--) if (frames[i].inApp) crash = i;
  if (crash < 0) return null;
  const location = locations[crash];
  if (location === null) return null;
  const line = sourceLine(frames[crash]);
  const below = locations.slice(crash + 1, crash + 1 + FRAMES_BELOW).filter((l): l is string => l !== null);
  return {
    components: [`frame:${location}${line ? `|${line}` : ""}`, ...below.map((l) => `below:${l}`)],
    crashFrame: location,
    hasSourceLine: line !== null,
  };
}
