import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ENVIRONMENTS } from "../../../shared/environments";
import { NATIVE_PLATFORMS } from "../../../shared/platforms";
import { IngestError } from "../http/ingest-error";
import { DEFAULT_TRIM_LIMITS, type TrimLimits } from "../http/ingest-limits";
import type { NormalizedFrame, NormalizedOccurrence } from "../../../shared/occurrence.types";
import { parseV8Stack } from "../normalize/v8-stack.parser";
import { readString, trimJson, trimString } from "../normalize/value-coercion";

/** Platforms the native `@traque/*` SDKs declare (docs/ingest-protocol.md §2). */
export const NativePlatform = z.enum(NATIVE_PLATFORMS);
export type NativePlatform = z.infer<typeof NativePlatform>;

// Lengths are not capped here on purpose: over-long strings are trimmed, not rejected (battery A5).
export const NativeFrame = z.object({
  filename: z.string().nullish(),
  functionName: z.string().nullish(),
  lineNumber: z.number().int().nullish(),
  columnNumber: z.number().int().nullish(),
  absolutePath: z.string().nullish(),
  module: z.string().nullish(),
  inApp: z.boolean().nullish(),
});
export type NativeFrame = z.infer<typeof NativeFrame>;

export const NativeExceptionInput = z.object({
  environment: z.enum(ENVIRONMENTS),
  platform: NativePlatform.nullish(),
  name: z.string().min(1),
  message: z.string(),
  httpContext: z
    .object({
      url: z.string().nullish(),
      method: z.string().nullish(),
      statusCode: z.number().int().nullish(),
      status: z.string().nullish(),
      clientIp: z.string().nullish(),
      response: z.unknown().optional(),
    })
    .nullish(),
  stacktrace: z
    .object({
      stack: z.string().nullish(),
      frames: z.array(NativeFrame).max(1000).nullish(),
    })
    .nullish(),
});
export type NativeExceptionInput = z.infer<typeof NativeExceptionInput>;

/** Sentry platform names, so grouping and culprits treat both protocols alike. */
const PLATFORM: Record<NativePlatform, string> = {
  NODE_JS: "node",
  NEST_JS: "node",
  REACT: "javascript",
  NEXT_JS: "javascript",
  PYTHON: "python",
  JAVA: "java",
  REACT_NATIVE: "react-native",
  EXPO: "react-native",
};

function toFrame(frame: NativeFrame): NormalizedFrame {
  const text = (value: string | null | undefined, max: number) => readString(value, max);
  return {
    filename: text(frame.filename, 1024),
    absPath: text(frame.absolutePath, 1024),
    function: text(frame.functionName, 512),
    module: text(frame.module, 512),
    lineno: frame.lineNumber ?? null,
    colno: frame.columnNumber ?? null,
    inApp: frame.inApp === true,
    contextLine: null,
    preContext: [],
    postContext: [],
  };
}

function toFrames(stacktrace: NativeExceptionInput["stacktrace"], limits: TrimLimits): NormalizedFrame[] {
  // Native frames are already oldest first; a bare `stack` string is parsed as a fallback.
  const frames = stacktrace?.frames?.length ? stacktrace.frames.map(toFrame) : stacktrace?.stack ? parseV8Stack(stacktrace.stack) : [];
  return frames.slice(-limits.maxFramesPerException);
}

function splitQuery(url: string | null): string | null {
  const at = url?.indexOf("?") ?? -1;
  return url && at >= 0 && at < url.length - 1 ? url.slice(at + 1) : null;
}

export interface NativeNormalizeOptions {
  receivedAt?: Date;
  limits?: Partial<TrimLimits>;
}

/**
 * Validates a native `POST /api/v1/exceptions` body and maps it to the same NormalizedOccurrence a
 * Sentry event produces, so both protocols share grouping and storage. The native SDK sends no
 * event id or timestamp: both are assigned here. Throws IngestError `malformed` (400).
 */
export function normalizeNativeException(body: unknown, options: NativeNormalizeOptions = {}): NormalizedOccurrence {
  const parsed = NativeExceptionInput.safeParse(body);
  if (!parsed.success) throw new IngestError("malformed", z.prettifyError(parsed.error));
  const input = parsed.data;
  const limits: TrimLimits = { ...DEFAULT_TRIM_LIMITS, ...options.limits };
  const http = input.httpContext;
  const url = readString(http?.url, 2048);
  const clientIp = readString(http?.clientIp, 64);
  const response =
    http && (http.statusCode != null || http.status != null || http.response !== undefined)
      ? {
          status_code: http.statusCode ?? null,
          status: readString(http.status, 256),
          body: trimJson(http.response ?? null, limits.maxStringLength),
        }
      : null;

  return {
    eventId: randomUUID().replaceAll("-", ""),
    timestamp: options.receivedAt ?? new Date(),
    level: "error",
    platform: input.platform ? PLATFORM[input.platform] : "other",
    environment: input.environment.toLowerCase(),
    release: null,
    serverName: null,
    transaction: null,
    logger: null,
    message: null,
    logentryTemplate: null,
    exceptions: [
      {
        type: trimString(input.name, 512),
        value: input.message === "" ? null : trimString(input.message, limits.maxStringLength),
        module: null,
        mechanism: null,
        frames: toFrames(input.stacktrace, limits),
      },
    ],
    stacktrace: [],
    request: http
      ? {
          url,
          method: readString(http.method, 16)?.toUpperCase() ?? null,
          query: splitQuery(url),
          headers: {},
          clientIp,
        }
      : null,
    user: clientIp ? { id: null, email: null, username: null, ip: clientIp } : null,
    tags: {},
    contexts: response ? { response } : {},
    breadcrumbs: [],
    sdk: null,
    extra: {},
    handled: null,
    fingerprint: null,
  };
}
