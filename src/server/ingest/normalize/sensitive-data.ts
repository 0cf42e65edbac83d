import { isPlainObject, trimString } from "./value-coercion";

export const FILTERED = "[Filtered]";

/**
 * Names whose values are credentials or personal secrets, matched anywhere in a key the way Relay's
 * default scrubbing does (`password`, `db_password`, `X-Api-Key`, `session_token`, …). Applied to
 * frame vars, request bodies, cookies and the CGI environment before anything is stored.
 */
const SENSITIVE_KEY =
  /pass(?:wd|word)?|secret|token|auth|credential|session|cookie|csrf|xsrf|api[-_]?key|private[-_]?key|bearer|signature|card[-_]?number|cvv|ssn/i;

export const isSensitiveKey = (key: string) => SENSITIVE_KEY.test(key);

export interface ScrubLimits {
  maxString: number;
  maxDepth: number;
  maxEntries: number;
}

/**
 * A bounded, scrubbed copy of free-form SDK JSON: strings cut at maxString, containers cut at
 * maxEntries, nesting cut at maxDepth ("[Truncated]"), and every value under a sensitive key
 * replaced by "[Filtered]" at any depth. Always copies (the input may be shared).
 */
export function scrubJson(value: unknown, limits: ScrubLimits, depth = 0): unknown {
  if (typeof value === "string") return trimString(value, limits.maxString);
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (depth >= limits.maxDepth) return "[Truncated]";
  if (Array.isArray(value)) return value.slice(0, limits.maxEntries).map((item) => scrubJson(item, limits, depth + 1));
  if (!isPlainObject(value)) return null;
  const entries = Object.entries(value)
    .slice(0, limits.maxEntries)
    .map(([key, item]): [string, unknown] => [trimString(key, 256), isSensitiveKey(key) ? FILTERED : scrubJson(item, limits, depth + 1)]);
  // fromEntries, not assignment, so a `__proto__` key stays data.
  return Object.fromEntries(entries);
}

/** scrubJson for a value that must be an object (vars, env); anything else is dropped. */
export function scrubRecord(value: unknown, limits: ScrubLimits): Record<string, unknown> | null {
  if (!isPlainObject(value)) return null;
  const scrubbed = scrubJson(value, limits) as Record<string, unknown>;
  return Object.keys(scrubbed).length > 0 ? scrubbed : null;
}
