import { FRAME_SYMBOLICATION, type FrameSymbolication, type RawFrame } from "./occurrence.types";

/**
 * A defensive reading of an exception's stored occurrence (`ExceptionDetail.data`, written by
 * ingest as the NormalizedOccurrence of shared/occurrence.types.ts). The views below are not that
 * type on purpose: the JSON may come from an older writer and every value started as SDK input, so
 * each field is checked for its type and anything unexpected is left out rather than trusted.
 * Shared, not the client's: the exception screen and the issue export (server/exports/) read an
 * occurrence through this one reading, so an export shows what the screen shows.
 */

export interface FrameView {
  filename: string | null;
  absPath: string | null;
  function: string | null;
  module: string | null;
  lineno: number | null;
  colno: number | null;
  inApp: boolean;
  contextLine: string | null;
  preContext: string[];
  postContext: string[];
  instructionAddr: string | null;
  package: string | null;
  /** Local variables as stored (trimmed and scrubbed at ingest). */
  vars: [string, unknown][];
  /** A JavaScript frame mapped through a source map: the minified frame the SDK sent. */
  raw: RawFrame | null;
  /** A JavaScript frame: "mapped", or why it is not (null for other platforms). */
  symbolication: FrameSymbolication | null;
}

export interface MechanismView {
  type: string | null;
  handled: boolean | null;
  synthetic: boolean;
  description: string | null;
  helpLink: string | null;
  isExceptionGroup: boolean;
  exceptionId: number | null;
  parentId: number | null;
}

export interface ExceptionValueView {
  type: string | null;
  value: string | null;
  module: string | null;
  mechanism: MechanismView | null;
  /** Oldest call first, crashing frame last, as stored. */
  frames: FrameView[];
}

export interface RequestView {
  url: string | null;
  method: string | null;
  query: string | null;
  headers: [string, string][];
  clientIp: string | null;
  cookies: [string, unknown][];
  data: unknown;
  env: [string, unknown][];
}

export interface UserView {
  id: string | null;
  email: string | null;
  username: string | null;
  ip: string | null;
  name: string | null;
  geo: [string, unknown][];
  data: [string, unknown][];
}

export interface ThreadView {
  id: string | null;
  name: string | null;
  crashed: boolean;
  current: boolean;
  frames: FrameView[];
}

export interface DebugImageView {
  type: string | null;
  name: string | null;
  address: string | null;
  size: number | null;
  debugId: string | null;
  arch: string | null;
}

export interface BreadcrumbView {
  timestamp: string | null;
  type: string | null;
  category: string | null;
  level: string | null;
  message: string | null;
  data: unknown;
}

export interface OccurrenceView {
  message: string | null;
  serverName: string | null;
  transaction: string | null;
  logger: string | null;
  handled: boolean | null;
  /** As stored: causes first, the thrown exception LAST. */
  exceptions: ExceptionValueView[];
  /** The stack of an event without exceptions (a message captured with a stack). */
  stacktrace: FrameView[];
  request: RequestView | null;
  user: UserView | null;
  tags: [string, string][];
  contexts: [string, unknown][];
  breadcrumbs: BreadcrumbView[];
  sdk: { name: string | null; version: string | null } | null;
  extra: [string, unknown][];
  fingerprint: string[] | null;
  dist: string | null;
  /** The crashing frame, as ingest wrote it (`module in function`, `0x… in lib`). */
  location: string | null;
  /** Package name → version. */
  modules: [string, string][];
  threads: ThreadView[];
  debugImages: DebugImageView[];
  /** The SDK's own timestamp when the stored one differs from it, and why. */
  originalTimestamp: string | null;
  timestampAdjustment: string | null;
}

type Json = Record<string, unknown>;

const record = (value: unknown): Json | null => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | null =>
  typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : null;
const count = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const flag = (value: unknown): boolean | null => (typeof value === "boolean" ? value : null);
const lines = (value: unknown): string[] => list(value).map((line) => text(line) ?? "");
const entries = (value: unknown): [string, unknown][] => Object.entries(record(value) ?? {});

function readFrame(value: unknown): FrameView | null {
  const frame = record(value);
  if (!frame) return null;
  return {
    filename: text(frame.filename),
    absPath: text(frame.absPath),
    function: text(frame.function),
    module: text(frame.module),
    lineno: count(frame.lineno),
    colno: count(frame.colno),
    inApp: frame.inApp === true,
    contextLine: text(frame.contextLine),
    preContext: lines(frame.preContext),
    postContext: lines(frame.postContext),
    instructionAddr: text(frame.instructionAddr),
    package: text(frame.package),
    vars: entries(frame.vars),
    raw: readRawFrame(frame.raw),
    symbolication: symbolicationState(frame.symbolication),
  };
}

function readRawFrame(value: unknown): RawFrame | null {
  const raw = record(value);
  if (!raw) return null;
  return { filename: text(raw.filename), function: text(raw.function), lineno: count(raw.lineno), colno: count(raw.colno) };
}

const symbolicationState = (value: unknown): FrameSymbolication | null =>
  FRAME_SYMBOLICATION.includes(value as FrameSymbolication) ? (value as FrameSymbolication) : null;

const readFrames = (value: unknown): FrameView[] =>
  list(value)
    .map(readFrame)
    .filter((frame): frame is FrameView => frame !== null);

function readException(value: unknown): ExceptionValueView | null {
  const exception = record(value);
  if (!exception) return null;
  const mechanism = record(exception.mechanism);
  return {
    type: text(exception.type),
    value: text(exception.value),
    module: text(exception.module),
    mechanism: mechanism
      ? {
          type: text(mechanism.type),
          handled: flag(mechanism.handled),
          synthetic: mechanism.synthetic === true,
          description: text(mechanism.description),
          helpLink: text(mechanism.helpLink),
          isExceptionGroup: mechanism.isExceptionGroup === true,
          exceptionId: count(mechanism.exceptionId),
          parentId: count(mechanism.parentId),
        }
      : null,
    frames: readFrames(exception.frames),
  };
}

function readRequest(value: unknown): RequestView | null {
  const request = record(value);
  if (!request) return null;
  const headers = Object.entries(record(request.headers) ?? {}).map(([name, header]): [string, string] => [name, text(header) ?? JSON.stringify(header) ?? ""]);
  return {
    url: text(request.url),
    method: text(request.method),
    query: text(request.query),
    headers,
    clientIp: text(request.clientIp),
    cookies: entries(request.cookies),
    data: request.data ?? null,
    env: entries(request.env),
  };
}

function readUser(value: unknown): UserView | null {
  const user = record(value);
  if (!user) return null;
  const view = { id: text(user.id), email: text(user.email), username: text(user.username), ip: text(user.ip), name: text(user.name) };
  const geo = entries(user.geo);
  const data = entries(user.data);
  return Object.values(view).some((field) => field !== null) || geo.length > 0 || data.length > 0 ? { ...view, geo, data } : null;
}

function readTags(value: unknown): [string, string][] {
  // Stored as an object; some older SDKs sent [key, value] pairs.
  if (Array.isArray(value)) {
    return value.flatMap((pair) => (Array.isArray(pair) && pair.length === 2 ? [[text(pair[0]) ?? "", text(pair[1]) ?? ""] as [string, string]] : []));
  }
  return Object.entries(record(value) ?? {}).map(([key, tag]): [string, string] => [key, text(tag) ?? JSON.stringify(tag) ?? ""]);
}

function readBreadcrumb(value: unknown): BreadcrumbView | null {
  const crumb = record(value);
  if (!crumb) return null;
  return {
    timestamp: text(crumb.timestamp),
    type: text(crumb.type),
    category: text(crumb.category),
    level: text(crumb.level),
    message: text(crumb.message),
    data: crumb.data ?? null,
  };
}

function readThread(value: unknown): ThreadView | null {
  const thread = record(value);
  if (!thread) return null;
  return {
    id: text(thread.id),
    name: text(thread.name),
    crashed: thread.crashed === true,
    current: thread.current === true,
    frames: readFrames(thread.frames),
  };
}

function readDebugImage(value: unknown): DebugImageView | null {
  const image = record(value);
  if (!image) return null;
  return {
    type: text(image.type),
    name: text(image.name),
    address: text(image.address),
    size: count(image.size),
    debugId: text(image.debugId),
    arch: text(image.arch),
  };
}

export function readOccurrence(data: Record<string, unknown>): OccurrenceView {
  const sdk = record(data.sdk);
  const fingerprint = Array.isArray(data.fingerprint) ? data.fingerprint.map((part) => text(part) ?? "") : null;
  return {
    message: text(data.message),
    serverName: text(data.serverName),
    transaction: text(data.transaction),
    logger: text(data.logger),
    handled: flag(data.handled),
    exceptions: list(data.exceptions)
      .map(readException)
      .filter((exception): exception is ExceptionValueView => exception !== null),
    stacktrace: readFrames(data.stacktrace),
    request: readRequest(data.request),
    user: readUser(data.user),
    tags: readTags(data.tags),
    contexts: Object.entries(record(data.contexts) ?? {}),
    breadcrumbs: list(data.breadcrumbs)
      .map(readBreadcrumb)
      .filter((crumb): crumb is BreadcrumbView => crumb !== null),
    sdk: sdk ? { name: text(sdk.name), version: text(sdk.version) } : null,
    extra: Object.entries(record(data.extra) ?? {}),
    fingerprint,
    dist: text(data.dist),
    location: text(data.location),
    modules: entries(data.modules).map(([name, version]): [string, string] => [name, text(version) ?? ""]),
    threads: list(data.threads)
      .map(readThread)
      .filter((thread): thread is ThreadView => thread !== null),
    debugImages: list(data.debugImages)
      .map(readDebugImage)
      .filter((image): image is DebugImageView => image !== null),
    originalTimestamp: text(data.originalTimestamp),
    timestampAdjustment: text(data.timestampAdjustment),
  };
}
