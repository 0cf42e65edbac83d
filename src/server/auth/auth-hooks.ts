import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import type { Db } from "../db/client";
import { deleteAtOnceWithPassword, deleteWithMailedLinkSignedOut } from "./account-deletion";
import { checkAuthInput } from "./auth-input-limits";
import { refuseOwnerRemovalByNonOwner } from "./member-removal";
import { refuseRoleEscalation, ROLE_GRANTING_PATHS } from "./role-grants";
import { listTeamMembersForTeamManagers } from "./team-member-listing";
import { extendOAuthStateCookie } from "./oauth-state-cookie";
import { selectProviderAccount } from "./provider-account-selection";
import { refuseUnknownSession } from "./session-revocation";
import { assertNotSoleOwner } from "./sole-owner";
import { redirectMalformedCallback, specAnswer } from "./spec-answers";
import { withTokenType } from "./token-answers";

/**
 * Spec §8 messages for /send-verification-email. better-auth 1.7 answers "Email is already
 * verified" and "Email mismatch" with the same codes; only the wording the client shows changes.
 */
const SEND_VERIFICATION_MESSAGES: Record<string, string> = {
  EMAIL_ALREADY_VERIFIED: "You can only send a verification email to an unverified email",
  EMAIL_MISMATCH: "You can only send a verification email to your own email",
};

/**
 * Spec §8 redirect codes. better-auth 1.7 puts its upper-case error codes on verify-email
 * redirects, and calls a missing, expired or foreign OAuth state "state_mismatch"; the client and
 * its error pages key on the spec's values (error=token_expired, invalid_token, user_not_found,
 * unauthorized; please_restart_the_process), so translate them back.
 */
const REDIRECT_ERRORS: Record<string, Record<string, string>> = {
  "/verify-email": {
    TOKEN_EXPIRED: "token_expired",
    INVALID_TOKEN: "invalid_token",
    USER_NOT_FOUND: "user_not_found",
    INVALID_USER: "unauthorized",
  },
  "/callback/:id": { state_mismatch: "please_restart_the_process", email_does_not_match: "email_doesn't_match" },
};

/**
 * better-auth's /organization/delete removes an organization in ONE cascading statement: on a big
 * organization a transaction over millions of rows that blocks ingest. Organizations are deleted by
 * the deletion job instead (deletions/organization-deletion.service.ts), so the endpoint is closed
 * to everyone, the owner included, with a pointer to the route that does it.
 */
const DELETE_ORGANIZATION_ELSEWHERE = {
  code: "DELETE_ORGANIZATION_THROUGH_API",
  message: "Delete the organization with DELETE /api/v1/organizations/{orgId}: its data is removed in the background",
};

const SESSION_EXPIRED = {
  code: "SESSION_EXPIRED",
  message: "Session expired. Re-authenticate to perform this action.",
};

/**
 * Before every auth endpoint: input limits (auth-input-limits.ts), then per-path rules.
 *
 * Spec §5: deleting an account without a password or token needs a fresh session. better-auth
 * only checks freshness when no deletion mail is configured; ours always mails a confirmation
 * link, so a stale (possibly stolen) session could start a deletion. Check it before the mail.
 * A sole owner is refused at once too, rather than after they open the mail (sole-owner.ts).
 */
export function authBeforeHook(freshAgeSeconds: number, db: Db) {
  return createAuthMiddleware(async (ctx) => {
    redirectMalformedCallback(ctx);
    checkAuthInput(ctx.path, ctx.body, ctx.query);
    await selectProviderAccount(ctx);
    if (ctx.path === "/change-email") return rejectEmailInUse(ctx);
    if (ctx.path === "/revoke-session") return refuseUnknownSession(ctx);
    if (ctx.path === "/organization/delete") throw APIError.from("FORBIDDEN", DELETE_ORGANIZATION_ELSEWHERE);
    if (ctx.path === "/organization/remove-member") return refuseOwnerRemovalByNonOwner(ctx, db);
    if (ROLE_GRANTING_PATHS.has(ctx.path)) return refuseRoleEscalation(ctx, db);
    if (ctx.path === "/organization/list-team-members") return listTeamMembersForTeamManagers(ctx, db);
    if (ctx.path === "/delete-user/callback") return deleteWithMailedLinkSignedOut(ctx, db);
    if (ctx.path !== "/delete-user") return;
    const session = await getSessionFromCtx(ctx);
    if (!session) return; // the endpoint itself answers 401
    await assertNotSoleOwner(db, session.user.id);
    const body = (ctx.body ?? {}) as { password?: unknown; token?: unknown };
    if (body.password) return deleteAtOnceWithPassword(ctx);
    if (body.token) return;
    const age = Date.now() - new Date(session.session.createdAt).getTime();
    if (age >= freshAgeSeconds * 1000) throw APIError.from("BAD_REQUEST", SESSION_EXPIRED);
  });
}

/**
 * Spec §5: changing to an address another account already uses is rejected with "Couldn't update
 * your email". better-auth 1.7 answers success and silently does nothing instead.
 */
async function rejectEmailInUse(ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]) {
  const newEmail = (ctx.body as { newEmail?: unknown } | undefined)?.newEmail;
  if (typeof newEmail !== "string") return;
  const existing = await ctx.context.internalAdapter.findUserByEmail(newEmail.trim().toLowerCase());
  if (!existing) return;
  // Your own address is better-auth's "Email is the same", answered by the endpoint itself.
  const session = await getSessionFromCtx(ctx);
  if (existing.user.id !== session?.user.id) throw APIError.from("BAD_REQUEST", { code: "COULDNT_UPDATE_YOUR_EMAIL", message: "Couldn't update your email" });
}

/**
 * After every auth endpoint. `onMemberLeft` runs after a successful /organization/leave: better-auth
 * 1.7 calls no organization hook there (remove-member calls afterRemoveMember), so membership
 * followers such as seat sync would miss a member who leaves.
 */
export const authAfterHook = (onMemberLeft?: (organizationId: string) => Promise<void>) =>
  createAuthMiddleware(async (ctx) => {
    extendOAuthStateCookie(ctx);
    const returned = ctx.context.returned;
    if (!isAPIError(returned)) {
      const organizationId = (ctx.body as { organizationId?: unknown } | undefined)?.organizationId;
      if (ctx.path === "/organization/leave" && onMemberLeft && typeof organizationId === "string") await onMemberLeft(organizationId);
      return withTokenType(ctx);
    }
    const redirectErrors = REDIRECT_ERRORS[ctx.path];
    const target = returned.headers instanceof Headers ? returned.headers.get("location") : null;
    if (redirectErrors && target) {
      const queryAt = target.indexOf("?");
      if (queryAt === -1) return;
      const base = target.slice(0, queryAt);
      const params = new URLSearchParams(target.slice(queryAt + 1));
      const mapped = redirectErrors[params.get("error") ?? ""];
      if (!mapped) return;
      params.set("error", mapped);
      throw ctx.redirect(`${base}?${params.toString()}`);
    }
    if (ctx.path !== "/send-verification-email") return specAnswer(ctx);
    const code = (returned.body as { code?: string } | undefined)?.code;
    const message = code ? SEND_VERIFICATION_MESSAGES[code] : undefined;
    if (code && message) throw APIError.from("BAD_REQUEST", { code, message });
  });
