import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../logger";

/** One structured line per request, written when the response is finished (or aborted). */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on("close", () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      // The path only: query strings can carry keys and tokens.
      logger.info("request", {
        requestId: req.id,
        method: req.method,
        path: req.originalUrl.split("?")[0],
        status: res.statusCode,
        durationMs: Math.round(durationMs * 10) / 10,
        ip: req.ip,
        aborted: !res.writableFinished,
      });
    });
    next();
  };
}
