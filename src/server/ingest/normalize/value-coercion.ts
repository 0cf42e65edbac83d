/**
 * Lenient readers for SDK JSON. Events come from many SDK versions and platforms: a field of the
 * wrong type is dropped, never a reason to reject the event. Over-long strings are trimmed, not
 * rejected (battery A5).
 */
export const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const ELLIPSIS = "…";

/** Cuts to at most `max` UTF-16 units, ending in "…", without leaving half a surrogate pair. */
export function trimString(value: string, max: number): string {
  if (value.length <= max) return value;
  let cut = value.slice(0, Math.max(0, max - 1));
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut + ELLIPSIS;
}

/** A string field; numbers and booleans are stringified (SDKs send ids and tags either way). */
export function readString(value: unknown, max: number): string | null {
  if (typeof value === "string") return value === "" ? null : trimString(value, max);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return null;
}

export function readInteger(value: unknown): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) ? value : null;
}

export function readBoolean(value: unknown): boolean | null {
  return typeof value === "boolean" ? value : null;
}

export function readStringArray(value: unknown, max: number, maxItems = 50): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .slice(0, maxItems)
    .map((v) => (typeof v === "string" ? trimString(v, max) : null))
    .filter((v): v is string => v !== null);
}

/** Sentry sends maps either as objects or as `[key, value]` lists (tags, headers, query). */
export function readPairs(value: unknown): [string, unknown][] {
  if (Array.isArray(value)) {
    return value.filter((p): p is [string, unknown] => Array.isArray(p) && p.length >= 2 && typeof p[0] === "string").map((p) => [p[0], p[1]]);
  }
  if (isPlainObject(value)) return Object.entries(value);
  return [];
}

/** Record<string,string> from an object or pair list; built with fromEntries so `__proto__` stays data. */
export function readStringRecord(value: unknown, maxKey: number, maxValue: number, maxEntries = 200): Record<string, string> {
  const entries: [string, string][] = [];
  for (const [key, raw] of readPairs(value)) {
    if (entries.length >= maxEntries) break;
    const text = readString(raw, maxValue);
    if (key === "" || text === null) continue;
    entries.push([trimString(key, maxKey), text]);
  }
  return Object.fromEntries(entries);
}

const MAX_JSON_DEPTH = 20;
const MAX_JSON_ENTRIES = 200;
const MAX_JSON_KEY = 256;

/**
 * Free-form JSON (contexts, extra, breadcrumb data) with strings trimmed, containers capped and
 * nesting cut at a fixed depth, so whatever an SDK attaches stays bounded in storage and in the
 * UI. Depth is bounded, so the recursion is too. Copy-on-write: a container that needs no change
 * is returned as it is (nearly always, and this runs on every ingested event), so `value` must be
 * freshly parsed JSON that nobody else holds.
 */
export function trimJson(value: unknown, maxString: number, depth = 0): unknown {
  if (typeof value === "string") return trimString(value, maxString);
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (depth >= MAX_JSON_DEPTH) return "[Truncated]";
  if (Array.isArray(value)) return trimArray(value, maxString, depth);
  if (isPlainObject(value)) return trimObject(value, maxString, depth);
  return null;
}

function trimArray(value: unknown[], maxString: number, depth: number): unknown[] {
  const kept = Math.min(value.length, MAX_JSON_ENTRIES);
  let copy: unknown[] | null = kept < value.length ? value.slice(0, kept) : null;
  for (let i = 0; i < kept; i++) {
    const trimmed = trimJson(value[i], maxString, depth + 1);
    if (trimmed !== value[i]) (copy ??= value.slice(0, kept))[i] = trimmed;
  }
  return copy ?? value;
}

function trimObject(value: Record<string, unknown>, maxString: number, depth: number): Record<string, unknown> {
  const keys = Object.keys(value);
  const kept = Math.min(keys.length, MAX_JSON_ENTRIES);
  // Entries are collected only once something changed (or entries were dropped).
  let entries: [string, unknown][] | null = kept < keys.length ? [] : null;
  for (let i = 0; i < kept; i++) {
    const key = keys[i];
    const trimmedKey = trimString(key, MAX_JSON_KEY);
    const trimmed = trimJson(value[key], maxString, depth + 1);
    if (!entries && (trimmedKey !== key || trimmed !== value[key])) entries = keys.slice(0, i).map((k): [string, unknown] => [k, value[k]]);
    entries?.push([trimmedKey, trimmed]);
  }
  // fromEntries, not assignment, so a `__proto__` key stays data.
  return entries ? Object.fromEntries(entries) : value;
}

export function readJsonRecord(value: unknown, maxString: number): Record<string, unknown> {
  return isPlainObject(value) ? (trimJson(value, maxString) as Record<string, unknown>) : {};
}

/** A date-time without `Z` or an offset (`2018-04-01T10:00:00`, `2018-04-01 10:00:00.123`). */
const OFFSETLESS_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)$/;

/**
 * Event and breadcrumb timestamps are float seconds since the epoch or RFC 3339 strings. A
 * date-time without an offset is UTC (as in Relay), never the server's local zone: JavaScript's
 * Date.parse would read it as local time and shift it by the server's TZ.
 */
export function readTimestamp(value: unknown): Date | null {
  let ms: number;
  if (typeof value === "number") ms = value * 1000;
  else if (typeof value === "string" && value !== "") {
    const offsetless = OFFSETLESS_DATE_TIME.exec(value);
    if (/^\d+(\.\d+)?$/.test(value)) ms = Number(value) * 1000;
    else if (offsetless) ms = Date.parse(`${offsetless[1]}T${offsetless[2]}Z`);
    else ms = Date.parse(value);
  } else return null;
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date;
}
