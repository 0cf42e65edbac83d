import type { NextFunction, Request, Response } from "express";
import { ZodError } from "zod";
import { AppError, APP_ERROR_STATUS, errorBody, validationError } from "../errors";
import type { Logger } from "../logger";

/**
 * REST's one mapper: `{ error: { code, message, details?, requestId } }`, internals never leak.
 * A ZodError, from an adapter's parse or from inside a service, is the same VALIDATION_ERROR
 * (with `details.issues`) that tRPC answers.
 */
export function restErrorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const requestId = String(req.id ?? "");
    const appError = error instanceof ZodError ? validationError(error) : error;
    if (appError instanceof AppError) {
      res.status(APP_ERROR_STATUS[appError.code]).json({ error: { ...errorBody(appError), requestId } });
      return;
    }
    if (isBodyParserError(error)) {
      res.status(error.status).json({
        error: {
          code: error.status === 413 ? "PAYLOAD_TOO_LARGE" : "BAD_REQUEST",
          message: error.status === 413 ? "Request body too large" : "Malformed JSON body",
          requestId,
        },
      });
      return;
    }
    logger.error("request failed", { requestId, err: error });
    res.status(500).json({ error: { code: "INTERNAL_SERVER_ERROR", message: "Something went wrong", requestId } });
  };
}

function isBodyParserError(error: unknown): error is { status: number } {
  return typeof error === "object" && error !== null && "type" in error && "status" in error && typeof (error as { status: unknown }).status === "number";
}

/** The one answer of a path under /api that nothing serves (the v1 router's and app.ts's catch-all alike). */
export function apiNotFound(req: Request, res: Response) {
  res.status(404).json({ error: { code: "NOT_FOUND", message: `No route for ${req.method} ${req.baseUrl}${req.path}`, requestId: String(req.id ?? "") } });
}
