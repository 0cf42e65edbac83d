import { APIError, isAPIError } from "better-auth/api";
import type { AuthHookContext } from "./hook-context";

/**
 * Answers better-auth 1.7 words or codes differently from the spec's error catalogue (§8), put
 * right after the endpoint has answered. Only the wording, code or status changes; whether a call
 * succeeds is never decided here.
 */

/** Spec §8 messages keyed by better-auth's error code. */
const MESSAGES: Record<string, string> = {
  ID_TOKEN_NOT_SUPPORTED: "ID token not supported",
  USER_EMAIL_NOT_FOUND: "User email not found",
};

/**
 * Spec §8: "Invalid body parameters and Invalid query parameters, code VALIDATION_ERROR, status
 * 400". better-call words them "[body.email] Invalid email; …"; that detail stays in `details`
 * for forms that show which field is wrong.
 */
export function validationError(where: "body" | "query", details: string) {
  return new APIError("BAD_REQUEST", {
    code: "VALIDATION_ERROR",
    message: where === "query" ? "Invalid query parameters" : "Invalid body parameters",
    details,
  });
}

function asValidationError(error: APIError) {
  const body = error.body as { code?: string; message?: string; details?: string } | undefined;
  if (body?.code !== "VALIDATION_ERROR" || body.details !== undefined) return null;
  const details = body.message ?? "";
  return validationError(details.startsWith("[query") ? "query" : "body", details);
}

/** Parameters of a social callback (spec §7: code, error, error_description, state, device_id, user), each one string. */
const CALLBACK_PARAMS = ["code", "error", "error_description", "state", "device_id", "user"];

/**
 * A social callback the provider (or someone) sent malformed, say with a parameter repeated:
 * spec §8 redirects with invalid_callback_request; better-auth 1.7 answers a raw 400 page. Checked
 * before the endpoint, since a redirect thrown after it would keep the 400 status.
 */
export function redirectMalformedCallback(ctx: AuthHookContext) {
  if (ctx.path !== "/callback/:id" && ctx.path !== "/oauth2/callback/:providerId") return;
  for (const source of [ctx.query, ctx.body]) {
    if (!source || typeof source !== "object") continue;
    const values = source as Record<string, unknown>;
    if (CALLBACK_PARAMS.some((name) => values[name] !== undefined && typeof values[name] !== "string")) {
      throw ctx.redirect(`${ctx.context.baseURL}/error?error=invalid_callback_request`);
    }
  }
}

/** Spec §6: a member refused by the permission table is forbidden (403), not unauthenticated (401). */
const FORBIDDEN_CODES = new Set(["YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER"]);

export function specAnswer(ctx: AuthHookContext) {
  const returned = ctx.context.returned;
  if (!isAPIError(returned)) return;
  const body = returned.body as { code?: string; message?: string } | undefined;
  const validation = asValidationError(returned);
  if (validation) throw validation;
  const code = body?.code;
  if (!code) return;
  const message = MESSAGES[code];
  if (message && body?.message !== message) throw new APIError(returned.status, { ...body, code, message });
  if (FORBIDDEN_CODES.has(code) && returned.statusCode !== 403) throw new APIError("FORBIDDEN", { ...body, code });
}
