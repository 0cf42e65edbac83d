/** `{scheme}://{publicKey}[:secret]@{host}[:port][/prefix]/{projectNumber}` (docs/ingest-protocol.md §1). */
export interface ParsedDsn {
  protocol: "http" | "https";
  publicKey: string;
  /** Legacy DSNs carry a secret; it is never required and never checked. */
  secretKey: string | null;
  /** host[:port] */
  host: string;
  /** Path before the project number ("" for the usual DSN). */
  pathPrefix: string;
  projectNumber: number;
}

/** SDKs and proxies assume the project segment is a positive integer; nothing else is accepted. */
export function parseProjectNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value !== "string" || !/^[1-9][0-9]{0,15}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

export function parseDsn(dsn: string): ParsedDsn | null {
  let url: URL;
  try {
    url = new URL(dsn.trim());
  } catch {
    return null;
  }
  const protocol = url.protocol === "https:" ? "https" : url.protocol === "http:" ? "http" : null;
  if (!protocol || !url.username) return null;
  const segments = url.pathname.replace(/\/+$/, "").split("/");
  const projectNumber = parseProjectNumber(segments.pop());
  if (projectNumber === null) return null;
  return {
    protocol,
    publicKey: decodeURIComponent(url.username),
    secretKey: url.password ? decodeURIComponent(url.password) : null,
    host: url.host,
    pathPrefix: segments.join("/"),
    projectNumber,
  };
}

/** The DSN shown on the project settings page and returned by the API. */
export function formatDsn(parts: { baseUrl: string; publicKey: string; projectNumber: number }): string {
  const url = new URL(parts.baseUrl);
  const prefix = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${encodeURIComponent(parts.publicKey)}@${url.host}${prefix}/${parts.projectNumber}`;
}
