import type { Request, Response } from "express";
import { IngestError } from "./ingest-error";
import { StorageUnavailableError } from "./storage-unavailable";
import type { Logger } from "../logger";

const SENTRY_ALLOW_HEADERS = "x-sentry-auth, content-type, content-encoding, authorization, sentry-trace, baggage, x-requested-with, origin, accept";
const SENTRY_EXPOSE_HEADERS = "x-sentry-error, x-sentry-rate-limits, retry-after";

/** CORS for SDK endpoints: any origin, no credentials (ingest never reads cookies). */
export function setIngestCors(res: Response, extraAllowHeaders = "") {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Allow-Methods", "POST, OPTIONS");
  res.setHeader("Access-Control-Allow-Headers", extraAllowHeaders ? `${SENTRY_ALLOW_HEADERS}, ${extraAllowHeaders}` : SENTRY_ALLOW_HEADERS);
  res.setHeader("Access-Control-Expose-Headers", SENTRY_EXPOSE_HEADERS);
  res.setHeader("Access-Control-Max-Age", "86400");
}

export function answerPreflight(extraAllowHeaders = "") {
  return (_req: Request, res: Response) => {
    setIngestCors(res, extraAllowHeaders);
    res.status(200).end();
  };
}

/** Header values must be one line of visible ASCII; error messages can hold anything. */
const headerSafe = (message: string) => message.replace(/[^\x20-\x7e]+/g, " ").trim().slice(0, 200);

/** Rate-limited: both headers SDKs read, so they stay quiet until the window ends. */
export function answerRateLimited(res: Response, retryAfterSeconds: number, categories: string, scope: string) {
  res.setHeader("Retry-After", String(retryAfterSeconds));
  res.setHeader("X-Sentry-Rate-Limits", `${retryAfterSeconds}:${categories}:${scope}`);
  res.status(429).json({ detail: "rate limited" });
}

/**
 * The ingest transport's one error mapper. Typed ingest errors keep their status; anything else
 * (the database down, a pool timeout) is 503 with Retry-After — SDKs drop events on other 5xx.
 */
export function answerIngestError(req: Request, res: Response, error: unknown, logger: Logger) {
  if (res.headersSent) return;
  // Whatever is left of the body is not worth reading; close instead of draining a bomb.
  if (!req.readableEnded) res.setHeader("Connection", "close");
  if (error instanceof IngestError) {
    res.setHeader("X-Sentry-Error", headerSafe(error.message));
    res.status(error.status).json({ detail: error.message, code: error.code });
    return;
  }
  const retryAfter = error instanceof StorageUnavailableError ? error.retryAfterSeconds : 5;
  if (!(error instanceof StorageUnavailableError)) logger.error("ingest failed", { requestId: req.id, err: error });
  res.setHeader("Retry-After", String(retryAfter));
  res.status(503).json({ detail: "storage unavailable, retry later" });
}
