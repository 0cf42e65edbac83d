import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../logger";
import { IngestError } from "./ingest-error";
import { StorageUnavailableError } from "./storage-unavailable";

/** Response headers as `writeHead` takes them fastest: [name, value, name, value, …]. */
export type HeaderList = string[];

const SENTRY_ALLOW_HEADERS = "x-sentry-auth, content-type, content-encoding, authorization, sentry-trace, baggage, x-requested-with, origin, accept";
const SENTRY_EXPOSE_HEADERS = "x-sentry-error, x-sentry-rate-limits, retry-after";

/** CORS for SDK endpoints: any origin, no credentials (ingest never reads cookies). */
export function ingestCorsHeaders(extraAllowHeaders = ""): HeaderList {
  return [
    "Access-Control-Allow-Origin",
    "*",
    "Access-Control-Allow-Methods",
    "POST, OPTIONS",
    "Access-Control-Allow-Headers",
    extraAllowHeaders ? `${SENTRY_ALLOW_HEADERS}, ${extraAllowHeaders}` : SENTRY_ALLOW_HEADERS,
    "Access-Control-Expose-Headers",
    SENTRY_EXPOSE_HEADERS,
    "Access-Control-Max-Age",
    "86400",
  ];
}

/**
 * One ingest answer. Every header goes out in a single writeHead with a precomputed list: on the
 * hot path that is measurably cheaper than Express's res.json (setHeader per header, an ETag hash).
 */
export class IngestReply {
  constructor(
    private readonly res: ServerResponse,
    /** Security, CORS and request-id headers every answer of this request carries. */
    private readonly headers: HeaderList,
  ) {}

  get sent() {
    return this.res.headersSent;
  }

  json(status: number, body: unknown, extraHeaders: HeaderList = []) {
    const text = JSON.stringify(body);
    this.res.writeHead(status, [
      ...this.headers,
      ...extraHeaders,
      "Content-Type",
      "application/json; charset=utf-8",
      "Content-Length",
      String(Buffer.byteLength(text)),
    ]);
    this.res.end(text);
  }

  empty(status: number) {
    this.res.writeHead(status, [...this.headers, "Content-Length", "0"]);
    this.res.end();
  }
}

/** Header values must be one line of visible ASCII; error messages can hold anything. */
const headerSafe = (message: string) =>
  message
    .replace(/[^\x20-\x7e]+/g, " ")
    .trim()
    .slice(0, 200);

/**
 * Rate-limited: both headers SDKs read, so they stay quiet until the window ends. A spent plan
 * quota is the organization scope with Sentry's reason code `usage_exceeded` (until the month rolls over).
 */
export function answerRateLimited(reply: IngestReply, retryAfterSeconds: number, categories: string, scope: string) {
  const quota = scope === "organization";
  reply.json(429, { detail: quota ? "the organization's monthly event quota is used up" : "rate limited" }, [
    "Retry-After",
    String(retryAfterSeconds),
    "X-Sentry-Rate-Limits",
    quota ? `${retryAfterSeconds}:${categories}:organization:usage_exceeded` : `${retryAfterSeconds}:${categories}:${scope}`,
  ]);
}

/**
 * The ingest transport's one error mapper. Typed ingest errors keep their status; anything else
 * (the database down, a pool timeout) is 503 with Retry-After — SDKs drop events on other 5xx.
 */
export function answerIngestError(req: IncomingMessage, reply: IngestReply, error: unknown, logger: Logger) {
  if (reply.sent) return;
  // Whatever is left of the body is not worth reading; close instead of draining a bomb.
  const close = req.readableEnded ? [] : ["Connection", "close"];
  if (error instanceof IngestError) {
    reply.json(error.status, { detail: error.message, code: error.code }, [...close, "X-Sentry-Error", headerSafe(error.message)]);
    return;
  }
  const retryAfter = error instanceof StorageUnavailableError ? error.retryAfterSeconds : 5;
  if (!(error instanceof StorageUnavailableError)) logger.error("ingest failed", { requestId: req.id, err: error });
  reply.json(503, { detail: "storage unavailable, retry later" }, [...close, "Retry-After", String(retryAfter)]);
}
