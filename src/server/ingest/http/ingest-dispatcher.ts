import type { IncomingMessage, ServerResponse } from "node:http";
import { clientAddress } from "../../http/client-address";
import { assignRequestId } from "../../http/request-id";
import { logWhenFinished } from "../../http/request-log";
import type { Logger } from "../../logger";
import { ingestCorsHeaders, IngestReply, type HeaderList } from "./ingest-http";

/** What an ingest handler gets: the raw request, its answer, and what the URL said. */
export interface IngestRequest {
  req: IncomingMessage;
  reply: IngestReply;
  query: URLSearchParams;
  /** The `{projectNumber}` path segment, decoded (Sentry endpoints only). */
  projectSegment?: string;
  /** The client's address through TRUST_PROXY hops. */
  clientIp(): string | null;
}

export type IngestHandler = (request: IngestRequest) => Promise<void>;

export interface IngestRouterOptions {
  sentry: { envelope: IngestHandler; store: IngestHandler };
  native: { exceptions: IngestHandler; events: IngestHandler };
  /** The app's security headers, as name/value pairs. */
  securityHeaders: [string, string][];
  /** Writes the one log line per request (the app's root logger). */
  logger: Logger;
  trustedProxyHops: number;
}

// As Express matched them: case-insensitive, optional trailing slash.
const SENTRY_PATH = /^\/api\/([^/]+)\/(envelope|store)\/?$/i;
const NATIVE_PATH = /^\/api\/v1\/(exceptions|events)\/?$/i;
const API_PREFIX = /^\/api\//i;

interface Route {
  handler: IngestHandler;
  headers: HeaderList;
  projectSegment?: string;
}

/**
 * The SDK endpoints, served on the raw node:http request before Express sees it: the hot path
 * pays for one regular expression and one writeHead instead of the router, per-header setHeader
 * calls and res.json. It still gives every answer the security headers, a request id and a log
 * line, like the rest of the app. Answers false for anything that is not an ingest request.
 */
export function createIngestRouter(options: IngestRouterOptions) {
  const security = options.securityHeaders.flat();
  const sentryHeaders = [...security, ...ingestCorsHeaders()];
  const nativeHeaders = [...security, ...ingestCorsHeaders("x-api-key")];

  const route = (path: string): Route | null => {
    const native = NATIVE_PATH.exec(path);
    if (native) {
      const handler = native[1].toLowerCase() === "exceptions" ? options.native.exceptions : options.native.events;
      return { handler, headers: nativeHeaders };
    }
    const sentry = SENTRY_PATH.exec(path);
    if (!sentry) return null;
    let projectSegment: string;
    try {
      projectSegment = decodeURIComponent(sentry[1]);
    } catch {
      projectSegment = sentry[1];
    }
    const handler = sentry[2].toLowerCase() === "envelope" ? options.sentry.envelope : options.sentry.store;
    return { handler, headers: sentryHeaders, projectSegment };
  };

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "POST" && req.method !== "OPTIONS") return false;
    const url = req.url ?? "/";
    if (!API_PREFIX.test(url)) return false;
    const queryStart = url.indexOf("?");
    const matched = route(queryStart === -1 ? url : url.slice(0, queryStart));
    if (!matched) return false;

    const clientIp = () => clientAddress(req, options.trustedProxyHops);
    const id = assignRequestId(req);
    logWhenFinished(options.logger, req, res, url, clientIp);
    const reply = new IngestReply(res, [...matched.headers, "X-Request-Id", id]);
    if (req.method === "OPTIONS") {
      reply.empty(200);
      return true;
    }
    const query = new URLSearchParams(queryStart === -1 ? "" : url.slice(queryStart + 1));
    matched.handler({ req, reply, query, projectSegment: matched.projectSegment, clientIp }).catch((error: unknown) => {
      // Handlers answer their own errors; this is the last resort so a request never hangs.
      options.logger.error("ingest handler failed", { requestId: id, err: error });
      if (!res.headersSent) reply.json(503, { detail: "storage unavailable, retry later" }, ["Retry-After", "5"]);
    });
    return true;
  };
}
