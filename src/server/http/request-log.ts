import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../logger";

/** Writes one structured line when the response is finished (or aborted). */
export function logWhenFinished(logger: Logger, req: IncomingMessage, res: ServerResponse, url: string, ip: () => string | null | undefined) {
  const started = process.hrtime.bigint();
  res.on("close", () => {
    const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
    // The path only: query strings can carry keys and tokens.
    logger.info("request", {
      requestId: req.id,
      method: req.method,
      path: url.split("?")[0],
      status: res.statusCode,
      durationMs: Math.round(durationMs * 10) / 10,
      ip: ip(),
      aborted: !res.writableFinished,
    });
  });
}

/** Express form: one line per request. */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    logWhenFinished(logger, req, res, req.originalUrl, () => req.ip);
    next();
  };
}
