import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Response } from "express";
import { ZodError } from "zod";
import { AppError, APP_ERROR_STATUS, validationError } from "../errors";
import type { Logger } from "../logger";

/**
 * MCP's one error mapper. Two levels, one rule set: a refused request (no token, a revoked or
 * under-scoped one, a method the stateless server does not answer) is a JSON-RPC error with its
 * HTTP status, as MCP clients expect; a failed tool call is a tool result with `isError`, whose
 * text is the domain's message — a ZodError becomes the same VALIDATION_ERROR (and message) REST
 * and tRPC answer. Never a stack or a query; an unknown error is logged and answered generically.
 */
export function refuse(res: Response, status: number, message: string) {
  if (status === 401) res.setHeader("WWW-Authenticate", 'Bearer realm="faultline", error="invalid_token"');
  res.status(status).json({ jsonrpc: "2.0", error: { code: -32001, message }, id: null });
}

/** A token check's refusal (401 or 403) as a JSON-RPC error; true when it answered, false for an error that is not a refusal. */
export function refuseAuthError(res: Response, error: unknown): boolean {
  if (!(error instanceof AppError) || (error.code !== "UNAUTHORIZED" && error.code !== "FORBIDDEN")) return false;
  refuse(res, APP_ERROR_STATUS[error.code], error.message);
  return true;
}

/** What the assistant sees when a tool call fails. */
export function toolError(error: unknown, logger: Logger, tokenId: string): CallToolResult {
  const appError = error instanceof ZodError ? validationError(error) : error;
  if (appError instanceof AppError) return asError(appError.message);
  logger.error("mcp tool failed", { tokenId, err: error });
  return asError("The tool failed; try again later");
}

function asError(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}
