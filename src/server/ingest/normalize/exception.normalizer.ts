import type { TrimLimits } from "../http/ingest-limits";
import type { NormalizedException, NormalizedFrame, NormalizedMechanism } from "../store/occurrence.types";
import { isPlainObject, readBoolean, readInteger, readString, readStringArray, trimJson, trimString } from "./value-coercion";

const PATH_MAX = 1024;
const NAME_MAX = 512;
const CONTEXT_LINES = 10;

export function normalizeFrame(raw: unknown, limits: TrimLimits): NormalizedFrame | null {
  if (!isPlainObject(raw)) return null;
  const lineMax = Math.min(limits.maxStringLength, 1024);
  return {
    filename: readString(raw.filename, PATH_MAX),
    absPath: readString(raw.abs_path, PATH_MAX),
    function: readString(raw.function, NAME_MAX),
    module: readString(raw.module, NAME_MAX),
    lineno: readInteger(raw.lineno),
    colno: readInteger(raw.colno),
    inApp: raw.in_app === true,
    contextLine: readString(raw.context_line, lineMax),
    preContext: readStringArray(raw.pre_context, lineMax, CONTEXT_LINES),
    postContext: readStringArray(raw.post_context, lineMax, CONTEXT_LINES),
  };
}

/**
 * Frames of one stacktrace, oldest first. Very deep stacks (recursion) are cut in the middle:
 * the crashing end matters most for grouping and reading, the entry point a little.
 */
export function normalizeFrames(stacktrace: unknown, limits: TrimLimits): NormalizedFrame[] {
  if (!isPlainObject(stacktrace) || !Array.isArray(stacktrace.frames)) return [];
  let frames: unknown[] = stacktrace.frames;
  const max = limits.maxFramesPerException;
  if (frames.length > max) {
    const head = Math.floor(max / 5);
    frames = [...frames.slice(0, head), ...frames.slice(frames.length - (max - head))];
  }
  return frames.map((f) => normalizeFrame(f, limits)).filter((f): f is NormalizedFrame => f !== null);
}

function normalizeMechanism(raw: unknown, limits: TrimLimits): NormalizedMechanism | null {
  if (!isPlainObject(raw)) return null;
  return {
    type: readString(raw.type, NAME_MAX),
    handled: readBoolean(raw.handled),
    synthetic: raw.synthetic === true,
    source: readString(raw.source, NAME_MAX),
    exceptionId: readInteger(raw.exception_id),
    parentId: readInteger(raw.parent_id),
    meta: raw.meta === undefined ? null : trimJson(raw.meta, limits.maxStringLength),
    data: raw.data === undefined ? null : trimJson(raw.data, limits.maxStringLength),
  };
}

function readValue(value: unknown, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return trimString(value, max);
  // Some SDKs send non-string values (numbers, objects thrown as errors): keep them readable.
  return trimString(JSON.stringify(trimJson(value, max)) ?? "", max);
}

function normalizeException(raw: unknown, limits: TrimLimits): NormalizedException | null {
  if (!isPlainObject(raw)) return null;
  const exception: NormalizedException = {
    type: readString(raw.type, NAME_MAX),
    value: readValue(raw.value, limits.maxStringLength),
    module: readString(raw.module, NAME_MAX),
    mechanism: normalizeMechanism(raw.mechanism, limits),
    frames: normalizeFrames(raw.stacktrace, limits),
  };
  if (exception.type === null && exception.value === null && exception.frames.length === 0) return null;
  return exception;
}

/**
 * The exception chain in the order sent: causes first, the exception that was thrown LAST.
 * Accepts `{values: [...]}`, a bare list (old clients) and the `sentry.interfaces.Exception` alias.
 * When the chain is too long the outermost entries are kept (they carry the title).
 */
export function normalizeExceptionChain(event: Record<string, unknown>, limits: TrimLimits): NormalizedException[] {
  const container = event.exception ?? event["sentry.interfaces.Exception"];
  const values = Array.isArray(container) ? container : isPlainObject(container) ? container.values : null;
  if (!Array.isArray(values)) return [];
  return values
    .slice(-limits.maxExceptions)
    .map((v) => normalizeException(v, limits))
    .filter((e): e is NormalizedException => e !== null);
}

/** Stack of an event without exceptions (captureMessage with attachStacktrace, or threads). */
export function normalizeEventStacktrace(event: Record<string, unknown>, limits: TrimLimits): NormalizedFrame[] {
  const direct = event.stacktrace ?? event["sentry.interfaces.Stacktrace"];
  if (isPlainObject(direct)) return normalizeFrames(direct, limits);
  const threads = isPlainObject(event.threads) ? event.threads.values : event.threads;
  if (!Array.isArray(threads)) return [];
  const thread = threads.find((t) => isPlainObject(t) && t.crashed === true) ?? threads.find((t) => isPlainObject(t) && t.current === true);
  return isPlainObject(thread) ? normalizeFrames(thread.stacktrace, limits) : [];
}

/** false if any mechanism says handled:false (one unhandled link makes the event unhandled). */
export function deriveHandled(exceptions: NormalizedException[]): boolean | null {
  const flags = exceptions.map((e) => e.mechanism?.handled).filter((h): h is boolean => typeof h === "boolean");
  if (flags.includes(false)) return false;
  return flags.length > 0 ? true : null;
}
