import { isIP } from "node:net";
import type { NormalizedRequest, NormalizedUser } from "../../../shared/occurrence.types";
import { FILTERED, scrubJson, scrubRecord, type ScrubLimits } from "./sensitive-data";
import { isPlainObject, readPairs, readString, trimString } from "./value-coercion";

export { FILTERED };

/**
 * Headers that carry credentials. SDKs with send_default_pii forward them verbatim; an error
 * tracker must not become a second store of session cookies and API keys.
 */
const SENSITIVE_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "x-sentry-auth",
  "x-auth-token",
  "x-csrf-token",
  "x-xsrf-token",
]);

const URL_MAX = 2048;
const BODY_LIMITS: ScrubLimits = { maxString: 2048, maxDepth: 6, maxEntries: 100 };
const ENV_LIMITS: ScrubLimits = { maxString: 512, maxDepth: 2, maxEntries: 50 };
const USER_DATA_LIMITS: ScrubLimits = { maxString: 512, maxDepth: 4, maxEntries: 50 };
const MAX_COOKIES = 50;
const HEADER_MAX = 1024;
const MAX_HEADERS = 100;
/** Browser SDKs send this to ask the server to fill in the connection's address. */
const AUTO_IP = "{{auto}}";

export function redactHeaders(raw: unknown): Record<string, string> {
  const entries: [string, string][] = [];
  for (const [name, value] of readPairs(raw)) {
    if (entries.length >= MAX_HEADERS) break;
    // An empty value is a value (`X-Forwarded-For: `); readString would drop it.
    const text = value === "" ? "" : readString(value, HEADER_MAX);
    if (name === "" || text === null) continue;
    entries.push([trimString(name, 256), SENSITIVE_HEADERS.has(name.toLowerCase()) ? FILTERED : text]);
  }
  return Object.fromEntries(entries);
}

/** `query_string` arrives as a string, an object or a pair list; stored as one string. */
function readQuery(raw: unknown): string | null {
  if (typeof raw === "string") return raw === "" ? null : trimString(raw.replace(/^\?/, ""), URL_MAX);
  const pairs = readPairs(raw);
  if (pairs.length === 0) return null;
  const params = new URLSearchParams();
  for (const [key, value] of pairs) {
    const text = readString(value, URL_MAX);
    if (text !== null) params.append(key, text);
  }
  return trimString(params.toString(), URL_MAX) || null;
}

/** An IPv4 or IPv6 address as text, else null: whatever else an SDK put there is not a client address. */
export function readIpAddress(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  return isIP(text) !== 0 ? text : null;
}

/** `{{auto}}` is the connection's address; anything that is not an IP address is dropped (as in Relay). */
function resolveIp(value: unknown, connectionIp: string | null): string | null {
  if (value === AUTO_IP) return connectionIp;
  return readIpAddress(value);
}

export function normalizeUser(event: Record<string, unknown>, connectionIp: string | null): NormalizedUser | null {
  const raw = event.user ?? event["sentry.interfaces.User"];
  if (!isPlainObject(raw)) return null;
  const user: NormalizedUser = {
    id: readString(raw.id, 256),
    email: readString(raw.email, 256),
    username: readString(raw.username, 256),
    ip: resolveIp(raw.ip_address, connectionIp),
  };
  const name = readString(raw.name, 256);
  const geo = scrubRecord(raw.geo, USER_DATA_LIMITS);
  const data = scrubRecord(raw.data, USER_DATA_LIMITS);
  if (name) user.name = name;
  if (geo) user.geo = geo;
  if (data) user.data = data;
  return user.id || user.email || user.username || user.ip || name || geo || data ? user : null;
}

/** Cookies (a header-style string, an object or pairs): the names, each value filtered — cookie values are credentials. */
function readCookies(raw: unknown): Record<string, string> | null {
  const pairs: [string, unknown][] =
    typeof raw === "string"
      ? raw
          .split(";")
          .map((part): [string, unknown] => [part.split("=", 1)[0].trim(), ""])
          .filter(([name]) => name !== "")
      : readPairs(raw);
  if (pairs.length === 0) return null;
  return Object.fromEntries(pairs.slice(0, MAX_COOKIES).map(([name]) => [trimString(name, 256), FILTERED]));
}

/**
 * The HTTP request the error happened in. Client IP: the user's `ip_address`, else the WSGI/CGI
 * `env.REMOTE_ADDR` Python integrations report — each only when it is an IP address. Cookies keep
 * their names only; the body and the environment are trimmed and scrubbed of sensitive names.
 */
export function normalizeRequest(event: Record<string, unknown>, user: NormalizedUser | null): NormalizedRequest | null {
  const raw = event.request ?? event["sentry.interfaces.Http"];
  if (!isPlainObject(raw)) return null;
  const env = isPlainObject(raw.env) ? raw.env : {};
  const request: NormalizedRequest = {
    url: readString(raw.url, URL_MAX),
    method: readString(raw.method, 16)?.toUpperCase() ?? null,
    query: readQuery(raw.query_string),
    headers: redactHeaders(raw.headers),
    clientIp: user?.ip ?? readIpAddress(env.REMOTE_ADDR),
  };
  const cookies = readCookies(raw.cookies);
  const data = raw.data === undefined || raw.data === null || raw.data === "" ? null : scrubJson(raw.data, BODY_LIMITS);
  const scrubbedEnv = scrubRecord(raw.env, ENV_LIMITS);
  if (cookies) request.cookies = cookies;
  if (data !== null) request.data = data;
  if (scrubbedEnv) request.env = scrubbedEnv;
  return request;
}
