import type { NormalizedException, NormalizedFrame, NormalizedOccurrence } from "../../shared/occurrence.types";

const TITLE_MAX = 512;
/** Sentry cuts the value (or message) in a title at 100 characters; the detail keeps the whole text. */
export const TITLE_VALUE_MAX = 100;
const UNLABELED = "<unlabeled event>";
/** Sentry's type for an exception that names none. */
const UNNAMED_TYPE = "Error";

/** Platforms whose frames read `function(file)` (Sentry's culprit style for JavaScript). */
const JS_PLATFORMS = new Set(["javascript", "node", "react-native"]);
/** Platforms whose frames are read by function alone (the file of a native frame is rarely known). */
const NATIVE_PLATFORMS = new Set(["objc", "cocoa", "native", "c"]);
/** Function names that say nothing about where it broke. */
const UNKNOWN_FUNCTIONS = new Set(["<redacted>", "<unknown>", "?"]);

function cap(text: string): string {
  return text.length > TITLE_MAX ? `${text.slice(0, TITLE_MAX - 1)}…` : text;
}

/** Sentry's truncatechars(text, 100): at most 100 characters, ending in "..." when cut. */
export function truncateForTitle(text: string): string {
  return text.length > TITLE_VALUE_MAX ? `${text.slice(0, TITLE_VALUE_MAX - 3)}...` : text;
}

function firstLine(text: string | null | undefined): string | null {
  const line = text?.split("\n", 1)[0].trim();
  return line ? line : null;
}

/**
 * The chain entry an exception group is titled by (Sentry's rule): the first exception of the
 * root group's tree, depth first, that is not itself a group. A chain without groups: null.
 */
function exceptionGroupMain(exceptions: NormalizedException[]): NormalizedException | null {
  if (!exceptions.some((e) => e.mechanism?.isExceptionGroup)) return null;
  const byId = new Map<number, NormalizedException>();
  for (const exception of exceptions) if (exception.mechanism?.exceptionId != null) byId.set(exception.mechanism.exceptionId, exception);
  const root = exceptions.find((e) => e.mechanism?.isExceptionGroup && (e.mechanism.parentId == null || !byId.has(e.mechanism.parentId)));
  if (!root || root.mechanism?.exceptionId == null) return null;
  const childrenOf = (id: number) => exceptions.filter((e) => e.mechanism?.parentId === id && e !== root);
  const stack = [...childrenOf(root.mechanism.exceptionId)];
  for (let guard = 0; stack.length > 0 && guard < exceptions.length; guard++) {
    const next = stack.shift()!;
    if (!next.mechanism?.isExceptionGroup) return next;
    if (next.mechanism.exceptionId != null) stack.unshift(...childrenOf(next.mechanism.exceptionId));
  }
  return null;
}

/**
 * The exception the title and culprit speak of: for an exception group its main exception, else the
 * thrown one, the LAST entry of the chain (causes come first). A typeless entry that only carries the
 * stack of a captureMessage (the SDK put the message in `message` too) is not one: that is a message.
 */
function titledException(occ: NormalizedOccurrence): NormalizedException | null {
  const main = exceptionGroupMain(occ.exceptions);
  if (main) return main;
  const last = occ.exceptions.at(-1);
  if (!last) return null;
  if (last.type === null && (occ.message !== null || last.value !== null)) return null;
  return last;
}

function isUsefulFunction(name: string | null): name is string {
  return name !== null && !UNKNOWN_FUNCTIONS.has(name);
}

/** The frame where it broke: the newest in-app frame, else the newest frame (with a usable function when one exists). */
export function crashingFrame(frames: NormalizedFrame[]): NormalizedFrame | null {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].inApp && isUsefulFunction(frames[i].function)) return frames[i];
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].inApp) return frames[i];
  for (let i = frames.length - 1; i >= 0; i--) if (isUsefulFunction(frames[i].function)) return frames[i];
  return frames.at(-1) ?? null;
}

/** The stack that speaks for the event: the titled exception's, else the last entry's, else the event's own. */
function eventFrames(occ: NormalizedOccurrence): NormalizedFrame[] {
  const exception = titledException(occ) ?? occ.exceptions.at(-1);
  if (exception && exception.frames.length > 0) return exception.frames;
  return occ.stacktrace;
}

/**
 * Sentry's title rule: `Type: first line of value` (the value cut at 100 characters) of the titled
 * exception, "Error" for an exception that names no type; for a synthetic exception (a native crash
 * handler's "SIGSEGV", "EXC_BAD_ACCESS") the crashing function, since its type and value are the
 * same for every crash; else the message's first line; else "<unlabeled event>".
 */
export function issueTitle(occ: NormalizedOccurrence): string {
  const exception = titledException(occ);
  if (exception) {
    if (exception.mechanism?.synthetic) {
      const frame = crashingFrame(exception.frames.length > 0 ? exception.frames : occ.stacktrace);
      if (frame && isUsefulFunction(frame.function)) return cap(frame.function);
    }
    const value = firstLine(exception.value);
    const type = exception.type ?? UNNAMED_TYPE;
    return cap(value ? `${type}: ${truncateForTitle(value)}` : type);
  }
  const text = firstLine(occ.message) ?? firstLine(occ.exceptions.at(-1)?.value);
  if (text) return cap(truncateForTitle(text));
  return occ.exceptions.length > 0 ? UNNAMED_TYPE : UNLABELED;
}

/**
 * One frame written the way Sentry writes a culprit for its platform: `function(file)` for
 * JavaScript, the function alone for native code, `module in function` (else `file in function`)
 * elsewhere. An address-only native frame reads `0x… in libfoo.so`.
 */
export function frameCulprit(frame: NormalizedFrame, eventPlatform: string): string {
  const platform = frame.platform ?? eventPlatform;
  const fn = isUsefulFunction(frame.function) ? frame.function : null;
  if (NATIVE_PLATFORMS.has(platform) || (!frame.module && !frame.filename && !frame.absPath)) {
    if (fn) return cap(fn);
    const binary = frame.package?.split(/[\\/]/).pop();
    const address = frame.instructionAddr ?? null;
    if (address) return cap(binary ? `${address} in ${binary}` : address);
    return binary ? cap(binary) : "?";
  }
  const file = frame.filename ?? frame.absPath;
  if (JS_PLATFORMS.has(platform)) return cap(file ? `${fn ?? "?"} (${file})` : (fn ?? "?"));
  return cap(`${frame.module ?? file} in ${fn ?? "?"}`);
}

/** Where it broke, always from the stack (shown beside the culprit, which the SDK or transaction may name). */
export function issueLocation(occ: NormalizedOccurrence): string | null {
  const frame = crashingFrame(eventFrames(occ));
  return frame ? frameCulprit(frame, occ.platform) : null;
}

/** Sentry's culprit rule: the SDK's `culprit` if sent, else the `transaction`, else the crashing frame. */
export function issueCulprit(occ: NormalizedOccurrence): string | null {
  if (occ.culprit) return cap(occ.culprit);
  if (occ.transaction) return cap(occ.transaction);
  return issueLocation(occ);
}
