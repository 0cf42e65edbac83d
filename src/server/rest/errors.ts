import type { NextFunction, Request, Response } from "express";
import { ZodError } from "zod";
import { AppError, APP_ERROR_STATUS } from "../errors";
import type { Logger } from "../logger";

/** REST's one mapper: `{ error: { code, message, requestId } }`, internals never leak. */
export function restErrorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const requestId = String(req.id ?? "");
    if (error instanceof AppError) {
      res.status(APP_ERROR_STATUS[error.code]).json({ error: { code: error.code, message: error.message, requestId } });
      return;
    }
    if (error instanceof ZodError) {
      const message = error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`).join("; ");
      res.status(400).json({ error: { code: "VALIDATION_ERROR", message, requestId } });
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
