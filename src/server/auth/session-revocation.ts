import { APIError, getSessionFromCtx } from "better-auth/api";
import type { AuthHookContext } from "./hook-context";

/**
 * Spec §8: "Session not found (bad request when revoking)". better-auth 1.7 answers success for a
 * token that names no session, so a client cannot tell a typo from a revocation. Another user's
 * session gets the same answer as a missing one: tokens of others reveal nothing.
 */
export async function refuseUnknownSession(ctx: AuthHookContext) {
  const token = (ctx.body as { token?: unknown } | undefined)?.token;
  if (typeof token !== "string") return;
  const session = await getSessionFromCtx(ctx);
  if (!session) return; // the endpoint answers 401
  const target = await ctx.context.internalAdapter.findSession(token);
  if (!target || target.session.userId !== session.user.id) throw APIError.from("BAD_REQUEST", { code: "SESSION_NOT_FOUND", message: "Session not found" });
}
