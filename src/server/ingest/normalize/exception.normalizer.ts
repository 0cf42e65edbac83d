import type { TrimLimits } from "../http/ingest-limits";
import type { NormalizedException, NormalizedFrame, NormalizedMechanism } from "../../../shared/occurrence.types";
import { scrubRecord, type ScrubLimits } from "./sensitive-data";
import { isPlainObject, readBoolean, readInteger, readString, readStringArray, trimJson, trimString } from "./value-coercion";

const PATH_MAX = 1024;
const NAME_MAX = 512;
const CONTEXT_LINES = 10;
const ADDRESS_MAX = 64;
/** Frame locals are for reading, not for storing a heap: small strings, shallow, few entries. */
const VARS_LIMITS: ScrubLimits = { maxString: 256, maxDepth: 4, maxEntries: 30 };

/** Addresses arrive as hex strings ("0x1a2b") or, from some SDKs, as numbers: kept as hex text. */
function readAddress(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return `0x${value.toString(16)}`;
  return readString(value, ADDRESS_MAX);
}

/**
 * Whether the frame holds any key addNativeFields reads; most frames of most SDKs hold none. Named
 * property reads rather than a loop over key names: this runs for every frame of every event, and
 * a keyed read per name (plus a closure per frame) made it a few percent of normalising.
 */
const hasNativeFields = (raw: Record<string, unknown>) =>
  raw.instruction_addr !== undefined ||
  raw.symbol_addr !== undefined ||
  raw.image_addr !== undefined ||
  raw.package !== undefined ||
  raw.raw_function !== undefined ||
  raw.symbol !== undefined ||
  raw.platform !== undefined ||
  raw.trust !== undefined ||
  raw.vars !== undefined;

/**
 * Adds the native and symbolication fields to `frame`, only those present. Runs for every frame of
 * every event: it sets what is there instead of building and filtering a full object.
 */
function addNativeFields(frame: NormalizedFrame, raw: Record<string, unknown>): NormalizedFrame {
  if (!hasNativeFields(raw)) return frame;
  const set = <K extends keyof NormalizedFrame>(key: K, value: NormalizedFrame[K] | null) => {
    if (value !== null) frame[key] = value;
  };
  set("instructionAddr", readAddress(raw.instruction_addr));
  set("symbolAddr", readAddress(raw.symbol_addr));
  set("imageAddr", readAddress(raw.image_addr));
  set("package", readString(raw.package, PATH_MAX));
  set("rawFunction", readString(raw.raw_function, NAME_MAX));
  set("symbol", readString(raw.symbol, NAME_MAX));
  set("platform", readString(raw.platform, 64));
  set("trust", readString(raw.trust, 32));
  set("vars", scrubRecord(raw.vars, VARS_LIMITS));
  return frame;
}

export function normalizeFrame(raw: unknown, limits: TrimLimits): NormalizedFrame | null {
  if (!isPlainObject(raw)) return null;
  const lineMax = Math.min(limits.maxStringLength, 1024);
  return addNativeFields(
    {
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
    },
    raw,
  );
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
    description: readString(raw.description, limits.maxStringLength),
    helpLink: readString(raw.help_link, 2048),
    isExceptionGroup: raw.is_exception_group === true,
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
  const chain = values
    .slice(-limits.maxExceptions)
    .map((v) => normalizeException(v, limits))
    .filter((e): e is NormalizedException => e !== null);
  // Relay's rule: one exception without a stack and an event-level stacktrace (sentry-elixir
  // sends errors this way) is one error: the stack belongs to the exception.
  if (chain.length === 1 && chain[0].frames.length === 0) {
    const direct = event.stacktrace ?? event["sentry.interfaces.Stacktrace"];
    if (isPlainObject(direct)) chain[0].frames = normalizeFrames(direct, limits);
  }
  return chain;
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
