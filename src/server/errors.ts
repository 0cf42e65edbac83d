import type { ZodError } from "zod";
import type { ValidationErrorDetails, ValidationIssue } from "../shared/api-errors";

/**
 * The one error family of the domain; each transport maps it once (tRPC, REST, ingest).
 *
 * - VALIDATION_ERROR (400) is what every rejected input answers, on both transports, whether zod
 *   ran in the adapter or inside a service; its details carry the issue list (`validationError`).
 * - The plan gate (billing/organization-plan.ts `requirePlan`) answers FORBIDDEN (403), as the
 *   spec's chat endpoint does, with `details: { reason: "plan_required", plan }` so clients send the
 *   user to /plus on that reason alone. PAYMENT_REQUIRED (402) stays available for calls that
 *   need a payment to be made, not a plan to be held.
 * - BAD_GATEWAY (502) when an outside system (model provider, AWS WAF, Stripe, SMTP) answered
 *   with an error or with something we cannot use; SERVICE_UNAVAILABLE (503) when we cannot
 *   serve right now and a retry later may work (database down, upstream throttling us).
 */
export const APP_ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type AppErrorCode = keyof typeof APP_ERROR_STATUS;

export class AppError extends Error {
  /**
   * `details` are sent to the client by both transports (REST `error.details`, tRPC
   * `data.details`), so they must be JSON and safe to show: never a cause, a query or a secret.
   */
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);

/** The body of every error answer, shared by the REST and tRPC mappers so the two cannot drift. */
export function errorBody(error: AppError): { code: AppErrorCode; message: string; details?: Record<string, unknown> } {
  return { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
}

/** A zod failure as the domain's VALIDATION_ERROR, with the `{ path, message }` issue list in its details. */
export function validationError(error: ZodError): AppError {
  const issues: ValidationIssue[] = error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
  const message = issues.map((issue) => `${issue.path || "body"}: ${issue.message}`).join("; ");
  const details: ValidationErrorDetails = { issues };
  return new AppError("VALIDATION_ERROR", message, { ...details });
}
