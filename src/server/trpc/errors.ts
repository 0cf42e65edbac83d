import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { ZodError } from "zod";
import { AppError, type AppErrorCode, validationError } from "../errors";

/** tRPC's own codes carry the same HTTP statuses as APP_ERROR_STATUS; `data.appCode` tells VALIDATION_ERROR from BAD_REQUEST. */
const CODE_MAP: Record<AppErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: "BAD_REQUEST",
  VALIDATION_ERROR: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  PAYMENT_REQUIRED: "PAYMENT_REQUIRED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  INTERNAL_SERVER_ERROR: "INTERNAL_SERVER_ERROR",
  BAD_GATEWAY: "BAD_GATEWAY",
  SERVICE_UNAVAILABLE: "SERVICE_UNAVAILABLE",
};

/**
 * The tRPC transport's one mapper for the domain error family. A ZodError is a VALIDATION_ERROR
 * wherever it was thrown: tRPC wraps an input failure as BAD_REQUEST but one thrown inside a
 * service as INTERNAL_SERVER_ERROR, and REST answers both alike, so both become the same AppError.
 */
export function toTRPCError(error: TRPCError): TRPCError {
  const cause = error.cause instanceof ZodError ? validationError(error.cause) : error.cause;
  if (cause instanceof AppError) return new TRPCError({ code: CODE_MAP[cause.code], message: cause.message, cause });
  if (error.code === "INTERNAL_SERVER_ERROR") {
    return new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "Something went wrong", cause: error.cause ?? error });
  }
  return error;
}
