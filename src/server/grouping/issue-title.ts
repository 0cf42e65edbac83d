import type { NormalizedException, NormalizedFrame, NormalizedOccurrence } from "../ingest/store/occurrence.types";

const TITLE_MAX = 512;
const UNLABELED = "<unlabeled event>";

const JS_PLATFORMS = new Set(["javascript", "node", "react-native"]);

function cap(text: string): string {
  return text.length > TITLE_MAX ? `${text.slice(0, TITLE_MAX - 1)}…` : text;
}

function firstLine(text: string | null): string | null {
  const line = text?.split("\n", 1)[0].trim();
  return line ? line : null;
}

/**
 * The exception that was thrown: the LAST entry of the chain (causes come first). A synthetic
 * exception without a type (captureMessage with a stack) is not one: that event is a message.
 */
function thrownException(occ: NormalizedOccurrence): NormalizedException | null {
  const last = occ.exceptions.at(-1);
  if (!last || last.type === null) return null;
  return last;
}

/** `Type: first line of value` of the thrown exception, else the message. */
export function issueTitle(occ: NormalizedOccurrence): string {
  const thrown = thrownException(occ);
  if (thrown) {
    const value = firstLine(thrown.value);
    return cap(value ? `${thrown.type}: ${value}` : thrown.type!);
  }
  const text = firstLine(occ.message) ?? firstLine(occ.exceptions.at(-1)?.value ?? null);
  return cap(text ?? UNLABELED);
}

function crashingFrame(frames: NormalizedFrame[]): NormalizedFrame | null {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].inApp) return frames[i];
  return frames.at(-1) ?? null;
}

/**
 * Where it broke: the last in-app frame of the thrown exception (or of the event's own stack),
 * written the way each ecosystem reads it: `function (file)` for JavaScript,
 * `module in function` elsewhere (Python's `__main__ in charge_card`).
 */
export function issueCulprit(occ: NormalizedOccurrence): string | null {
  const frames = occ.exceptions.at(-1)?.frames ?? [];
  const frame = crashingFrame(frames.length > 0 ? frames : occ.stacktrace);
  if (!frame) return occ.transaction;
  const fn = frame.function ?? "?";
  const file = frame.filename ?? frame.absPath;
  if (frame.module && !JS_PLATFORMS.has(occ.platform)) return cap(`${frame.module} in ${fn}`);
  return cap(file ? `${fn} (${file})` : fn);
}
