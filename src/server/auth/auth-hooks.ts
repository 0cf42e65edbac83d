import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";

/**
 * Spec §8 messages for /send-verification-email. better-auth 1.7 answers "Email is already
 * verified" and "Email mismatch" with the same codes; only the wording the client shows changes.
 */
const SEND_VERIFICATION_MESSAGES: Record<string, string> = {
  EMAIL_ALREADY_VERIFIED: "You can only send a verification email to an unverified email",
  EMAIL_MISMATCH: "You can only send a verification email to your own email",
};

const SESSION_EXPIRED = {
  code: "SESSION_EXPIRED",
  message: "Session expired. Re-authenticate to perform this action.",
};

/**
 * Spec §5: deleting an account without a password or token needs a fresh session. better-auth
 * only checks freshness when no deletion mail is configured; ours always mails a confirmation
 * link, so a stale (possibly stolen) session could start a deletion. Check it before the mail.
 */
export function authBeforeHook(freshAgeSeconds: number) {
  return createAuthMiddleware(async (ctx) => {
    if (ctx.path !== "/delete-user") return;
    const body = (ctx.body ?? {}) as { password?: unknown; token?: unknown };
    if (body.password || body.token) return;
    const session = await getSessionFromCtx(ctx);
    if (!session) return; // the endpoint itself answers 401
    const age = Date.now() - new Date(session.session.createdAt).getTime();
    if (age >= freshAgeSeconds * 1000) throw APIError.from("BAD_REQUEST", SESSION_EXPIRED);
  });
}

export const authAfterHook = createAuthMiddleware(async (ctx) => {
  if (ctx.path !== "/send-verification-email") return;
  const returned = ctx.context.returned;
  if (!isAPIError(returned)) return;
  const code = (returned.body as { code?: string } | undefined)?.code;
  const message = code ? SEND_VERIFICATION_MESSAGES[code] : undefined;
  if (code && message) throw APIError.from("BAD_REQUEST", { code, message });
});
