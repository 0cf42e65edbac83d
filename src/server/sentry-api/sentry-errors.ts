import type { NextFunction, Request, Response } from "express";
import { ZodError } from "zod";
import { AppError, APP_ERROR_STATUS, validationError } from "../errors";
import type { Logger } from "../logger";

/**
 * The Sentry tool API's one mapper: Sentry's `{"detail": "…"}` with its status codes (sentry-cli
 * prints `detail`). 401 without a valid token, 403 for a missing scope or grant, 404 for anything
 * of another organization, 400 for what fails validation.
 */
export function sentryErrorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const appError = error instanceof ZodError ? validationError(error) : error;
    if (appError instanceof AppError) {
      res.status(APP_ERROR_STATUS[appError.code]).json({ detail: appError.message });
      return;
    }
    if (typeof error === "object" && error !== null && "type" in error && "status" in error && typeof error.status === "number") {
      res.status(error.status).json({ detail: error.status === 413 ? "Request body too large" : "Malformed JSON body" });
      return;
    }
    logger.error("sentry api request failed", { requestId: String(req.id ?? ""), err: error });
    res.status(500).json({ detail: "Internal Error" });
  };
}

/** What Sentry answers for a path it does not serve. */
export function sentryNotFound(_req: Request, res: Response) {
  res.status(404).json({ detail: "The requested resource does not exist" });
}
