import { hash } from "node:crypto";
import type { NormalizedException, NormalizedFrame, NormalizedOccurrence } from "../../shared/occurrence.types";
import { issueCulprit, issueTitle } from "./issue-title";
import { normalizeMessage } from "./message-normalizer";
import { normalizeFramePath, normalizeFunction, normalizeModule } from "./path-normalizer";

/**
 * Grouping algorithm version 1. Every stored fingerprint records the version that made it
 * (bugsink's rule): a future v2 is a new file, and issues grouped by v1 stay where they are.
 */
export const GROUPING_VERSION = 1;

export interface Grouping {
  /** sha256 hex of the components: the issue key within a project. */
  fingerprint: string;
  /** Human-readable parts the hash was made of (shown as "why grouped" and kept for debugging). */
  components: string[];
  version: number;
  title: string;
  culprit: string | null;
}

// `{{ default }}` in a custom fingerprint stands for what grouping would have produced.
const DEFAULT_VARIABLE = /^\{\{\s*default\s*\}\}$/i;

/**
 * One frame as a grouping component: where (module, else normalised file) and which function.
 * Line and column numbers are left out on purpose: any edit above the crash moves them, and the
 * issue must survive a deploy.
 */
function frameComponent(frame: NormalizedFrame): string | null {
  const fn = frame.function ? normalizeFunction(frame.function) : "";
  const path = frame.filename ?? frame.absPath;
  const where = frame.module ? normalizeModule(frame.module) : path ? normalizeFramePath(path) : "";
  if (fn === "" && where === "") return null;
  return `frame:${where}|${fn}`;
}

/** In-app frames decide; when an SDK marks none as in-app (or cannot tell), all frames do. */
function groupingFrames(frames: NormalizedFrame[]): string[] {
  const inApp = frames.filter((f) => f.inApp);
  return (inApp.length > 0 ? inApp : frames).map(frameComponent).filter((c): c is string => c !== null);
}

/**
 * Exceptions with a type. A typeless one is the synthetic vehicle some SDKs use to carry the stack
 * of a captureMessage (see the node `message` fixture): that event groups as a message.
 */
function realExceptions(occ: NormalizedOccurrence): NormalizedException[] {
  return occ.exceptions.filter((e) => e.type !== null);
}

/** (b) the chain's types, each followed by its stack's frames. Null when no stack is usable. */
function stackComponents(exceptions: NormalizedException[]): string[] | null {
  const components: string[] = [];
  let frameCount = 0;
  for (const exception of exceptions) {
    const frames = groupingFrames(exception.frames);
    frameCount += frames.length;
    components.push(`type:${exception.type}`, ...frames);
  }
  return frameCount > 0 ? components : null;
}

/** (c) the types plus the thrown exception's value with its variable parts replaced. */
function typeAndValueComponents(exceptions: NormalizedException[]): string[] {
  const value = exceptions.at(-1)?.value;
  return [...exceptions.map((e) => `type:${e.type}`), ...(value ? [`value:${normalizeMessage(value)}`] : [])];
}

/** (d) the message template when the SDK sent one, else the normalised message; else its stack. */
function messageComponents(occ: NormalizedOccurrence): string[] {
  if (occ.logentryTemplate) return [`message:${occ.logentryTemplate}`];
  const text = occ.message ?? occ.exceptions.at(-1)?.value ?? null;
  if (text) return [`message:${normalizeMessage(text)}`];
  const frames = groupingFrames(occ.exceptions.at(-1)?.frames ?? occ.stacktrace);
  return frames.length > 0 ? frames : ["unlabeled"];
}

function defaultComponents(occ: NormalizedOccurrence): string[] {
  const exceptions = realExceptions(occ);
  if (exceptions.length === 0) return messageComponents(occ);
  return stackComponents(exceptions) ?? typeAndValueComponents(exceptions);
}

/** (a) the event's own fingerprint wins; `{{ default }}` splices in the default components. */
function customComponents(fingerprint: string[], occ: NormalizedOccurrence): string[] {
  return fingerprint.flatMap((part) => (DEFAULT_VARIABLE.test(part.trim()) ? defaultComponents(occ) : [`custom:${part}`]));
}

export function hashComponents(components: string[]): string {
  // JSON keeps the boundaries between components unambiguous (["a","b"] ≠ ["a\nb"]).
  return hash("sha256", JSON.stringify(components), "hex");
}

function groupingComponentsV1(occ: NormalizedOccurrence): string[] {
  return occ.fingerprint ? customComponents(occ.fingerprint, occ) : defaultComponents(occ);
}

/** The v1 fingerprint alone: what ingest links v1 issues by (title and culprit come from v2). */
export function fingerprintV1(occ: NormalizedOccurrence): string {
  return hashComponents(groupingComponentsV1(occ));
}

export function computeGrouping(occ: NormalizedOccurrence): Grouping {
  const components = groupingComponentsV1(occ);
  return {
    fingerprint: hashComponents(components),
    components,
    version: GROUPING_VERSION,
    title: issueTitle(occ),
    culprit: issueCulprit(occ),
  };
}
