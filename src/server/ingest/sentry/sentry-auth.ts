import { parseDsn } from "./dsn";
import { IngestError } from "../http/ingest-error";
import { KEY_SHAPE } from "../key-shape";

export type SentryAuthSource = "query" | "x-sentry-auth" | "authorization" | "envelope-dsn";

type HeaderValue = string | string[] | undefined;

export interface SentryAuthInput {
  /** URL query: `URLSearchParams`, or Express `req.query` (values may be arrays). */
  query?: URLSearchParams | Record<string, unknown>;
  /** Request headers with lower-case names (Node's IncomingHttpHeaders fits). Cookies are ignored. */
  headers?: Record<string, HeaderValue>;
  /** `dsn` of the envelope header, when the body is an envelope. */
  envelopeDsn?: string | null;
  /** Project number from the URL path; an envelope DSN naming another project is a conflict. */
  urlProjectNumber?: number;
}

export interface SentryAuth {
  publicKey: string;
  /** Every place the key was found (all agree). */
  sources: SentryAuthSource[];
  /** `sentry_client` when sent (e.g. `sentry.python/1.9.10`), for logs and stats. */
  client: string | null;
}

/**
 * Parses `Sentry sentry_key=KEY, sentry_version=7, sentry_client=…` (X-Sentry-Auth and
 * `Authorization: Sentry …`). Returns null when the scheme is not `Sentry`.
 */
export function parseSentryAuthHeader(value: string): Record<string, string> | null {
  const match = /^\s*sentry\s+(.*)$/is.exec(value);
  if (!match) return null;
  const pairs: [string, string][] = [];
  for (const part of match[1].split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    const raw = part.slice(eq + 1).trim();
    pairs.push([key, raw.replace(/^"(.*)"$/s, "$1")]);
  }
  // fromEntries defines own properties, so a `__proto__` pair cannot touch the prototype.
  return Object.fromEntries(pairs);
}

function queryValues(query: SentryAuthInput["query"], name: string): string[] {
  if (!query) return [];
  if (query instanceof URLSearchParams) return query.getAll(name);
  const value = query[name];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

function headerValues(headers: SentryAuthInput["headers"], name: string): string[] {
  const value = headers?.[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

interface Found {
  source: SentryAuthSource;
  key: string;
  client?: string;
}

function collect(input: SentryAuthInput): Found[] {
  const found: Found[] = [];
  const queryClient = queryValues(input.query, "sentry_client")[0];
  for (const key of queryValues(input.query, "sentry_key")) found.push({ source: "query", key, client: queryClient });

  for (const value of headerValues(input.headers, "x-sentry-auth")) {
    const fields = parseSentryAuthHeader(value);
    if (!fields?.sentry_key) throw new IngestError("auth_invalid", "X-Sentry-Auth has no sentry_key");
    found.push({ source: "x-sentry-auth", key: fields.sentry_key, client: fields.sentry_client });
  }

  for (const value of headerValues(input.headers, "authorization")) {
    const fields = parseSentryAuthHeader(value);
    if (fields?.sentry_key) {
      found.push({ source: "authorization", key: fields.sentry_key, client: fields.sentry_client });
      continue;
    }
    // Relay also accepts `Authorization: DSN <dsn>`; other schemes (Bearer, Basic) are not ours.
    const dsnMatch = /^\s*dsn\s+(\S+)\s*$/i.exec(value);
    const dsn = dsnMatch ? parseDsn(dsnMatch[1]) : null;
    if (dsn) found.push({ source: "authorization", key: dsn.publicKey });
  }

  if (input.envelopeDsn) {
    const dsn = parseDsn(input.envelopeDsn);
    if (!dsn) throw new IngestError("auth_invalid", "envelope header dsn is not a valid DSN");
    if (input.urlProjectNumber !== undefined && dsn.projectNumber !== input.urlProjectNumber) {
      throw new IngestError("auth_conflict", "envelope dsn names another project than the URL");
    }
    found.push({ source: "envelope-dsn", key: dsn.publicKey });
  }
  return found;
}

/**
 * Finds the project key of a Sentry request. Any one source is enough; when several are present
 * they must name the same key (else `auth_conflict`, 401), because a request that carries two keys
 * could otherwise be charged to one project while being authorised by another. None → `auth_missing`
 * (403). The key is only extracted here; whether it exists is the caller's (cached) lookup.
 */
export function extractSentryAuth(input: SentryAuthInput): SentryAuth {
  const found = collect(input);
  if (found.length === 0) throw new IngestError("auth_missing", "no sentry_key in query, headers or envelope");
  const key = found[0].key.trim();
  if (found.some((f) => f.key.trim() !== key)) {
    throw new IngestError("auth_conflict", "the request carries different sentry keys");
  }
  if (!KEY_SHAPE.test(key)) throw new IngestError("auth_invalid", "sentry_key has an invalid format");
  return {
    publicKey: key,
    sources: [...new Set(found.map((f) => f.source))],
    client: found.find((f) => f.client)?.client ?? null,
  };
}
