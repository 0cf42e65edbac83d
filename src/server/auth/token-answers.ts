import type { AuthHookContext } from "./hook-context";

/**
 * Spec §7: /get-access-token and /refresh-token return `{ tokenType, idToken, accessToken,
 * refreshToken, accessTokenExpiresAt, refreshTokenExpiresAt }`. better-auth 1.7 leaves out the
 * token type (every provider we support issues Bearer tokens). get-access-token does not hand out
 * the refresh token: a caller that only needs to call the provider has no use for it, and
 * /refresh-token returns it to whoever needs to refresh.
 */
const TOKEN_PATHS = new Set(["/get-access-token", "/refresh-token"]);

export function withTokenType(ctx: AuthHookContext) {
  if (!TOKEN_PATHS.has(ctx.path)) return;
  const returned = ctx.context.returned as Record<string, unknown> | undefined;
  if (!returned || typeof returned !== "object" || returned instanceof Error || typeof returned.accessToken !== "string") return;
  return ctx.json({ tokenType: "Bearer", ...returned });
}
