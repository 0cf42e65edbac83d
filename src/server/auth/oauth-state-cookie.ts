import type { AuthHookContext } from "./hook-context";

/**
 * Spec §9: "OAuth state is valid 10 minutes". better-auth 1.7 keeps the state row 10 minutes but
 * gives the browser's state cookie only 300 s, so someone who spends more than five minutes at the
 * provider (a password manager, a second factor) came back to please_restart_the_process. After a
 * flow starts, the state cookie is sent again with the state's own lifetime.
 */
export const OAUTH_STATE_SECONDS = 10 * 60;

const STARTS_FLOW = new Set(["/sign-in/social", "/link-social", "/sign-in/oauth2", "/oauth2/link"]);

export function extendOAuthStateCookie(ctx: AuthHookContext) {
  if (!STARTS_FLOW.has(ctx.path)) return;
  const headers = ctx.context.responseHeaders;
  if (!headers) return;
  const stateCookie = ctx.context.createAuthCookie("state").name;
  const cookies = headers.getSetCookie();
  if (!cookies.some((line) => line.startsWith(`${stateCookie}=`))) return;
  headers.delete("set-cookie");
  for (const line of cookies) {
    headers.append("set-cookie", line.startsWith(`${stateCookie}=`) ? line.replace(/Max-Age=\d+/i, `Max-Age=${OAUTH_STATE_SECONDS}`) : line);
  }
}
