import type { NormalizedRequest, NormalizedUser } from "../store/occurrence.types";
import { isPlainObject, readPairs, readString, trimString } from "./value-coercion";

export const FILTERED = "[Filtered]";

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
const HEADER_MAX = 1024;
const MAX_HEADERS = 100;
/** Browser SDKs send this to ask the server to fill in the connection's address. */
const AUTO_IP = "{{auto}}";

export function redactHeaders(raw: unknown): Record<string, string> {
  const entries: [string, string][] = [];
  for (const [name, value] of readPairs(raw)) {
    if (entries.length >= MAX_HEADERS) break;
    const text = readString(value, HEADER_MAX);
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

function resolveIp(value: unknown, connectionIp: string | null): string | null {
  if (value === AUTO_IP) return connectionIp;
  return readString(value, 64);
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
  return user.id || user.email || user.username || user.ip ? user : null;
}

/**
 * The HTTP request the error happened in. Client IP: the user's `ip_address`, else the WSGI/CGI
 * `env.REMOTE_ADDR` Python integrations report. Cookies and bodies are not kept.
 */
export function normalizeRequest(event: Record<string, unknown>, user: NormalizedUser | null): NormalizedRequest | null {
  const raw = event.request ?? event["sentry.interfaces.Http"];
  if (!isPlainObject(raw)) return null;
  const env = isPlainObject(raw.env) ? raw.env : {};
  return {
    url: readString(raw.url, URL_MAX),
    method: readString(raw.method, 16)?.toUpperCase() ?? null,
    query: readQuery(raw.query_string),
    headers: redactHeaders(raw.headers),
    clientIp: user?.ip ?? readString(env.REMOTE_ADDR, 64),
  };
}
