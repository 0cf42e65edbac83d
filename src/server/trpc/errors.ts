import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { AppError, type AppErrorCode } from "../errors";

const CODE_MAP: Record<AppErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  INTERNAL_SERVER_ERROR: "INTERNAL_SERVER_ERROR",
  SERVICE_UNAVAILABLE: "SERVICE_UNAVAILABLE",
};

/** The tRPC transport's one mapper for the domain error family. */
export function toTRPCError(error: TRPCError): TRPCError {
  const cause = error.cause;
  if (cause instanceof AppError) return new TRPCError({ code: CODE_MAP[cause.code], message: cause.message, cause });
  if (error.code === "INTERNAL_SERVER_ERROR") {
    return new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "Something went wrong", cause: error.cause ?? error });
  }
  return error;
}
