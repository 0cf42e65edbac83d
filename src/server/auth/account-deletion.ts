import { APIError, getSessionFromCtx } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import { generateRandomString } from "better-auth/crypto";
import type { Db } from "../db/client";
import type { AuthHookContext } from "./hook-context";
import { assertNotSoleOwner } from "./sole-owner";

/**
 * Spec §5: "Delete user with a password: the password must match the credential account." Once it
 * does, that is the proof of identity, so the account goes at once. better-auth 1.7 mails a
 * confirmation link whenever a mail sender is configured, password or not. With the right password
 * this hands the endpoint a one-minute deletion token of its own, and better-auth deletes through
 * its usual path (beforeDelete, sessions, cookies). A wrong password is left to the endpoint,
 * which answers "Invalid password"; password-less accounts still get the mailed link.
 */
const TOKEN_SECONDS = 60;

export async function deleteAtOnceWithPassword(ctx: AuthHookContext) {
  const body = ctx.body as { password?: unknown; token?: unknown } | undefined;
  if (!body || typeof body.password !== "string" || !body.password || body.token !== undefined) return;
  const session = await getSessionFromCtx(ctx);
  if (!session) return;
  const credential = await ctx.context.internalAdapter.findCredentialAccount(session.user.id);
  if (!credential?.password) return;
  if (!(await ctx.context.password.verify({ hash: credential.password, password: body.password }))) return;
  const token = generateRandomString(32, "0-9", "a-z");
  await ctx.context.internalAdapter.createVerificationValue({
    value: session.user.id,
    identifier: `delete-account-${token}`,
    expiresAt: new Date(Date.now() + TOKEN_SECONDS * 1000),
  });
  body.token = token;
}

/**
 * The mailed link (GET /delete-user/callback) must work where people open mail: often a browser
 * that is not signed in. better-auth 1.7 needs a session there and answers "Failed to get user
 * info". The token alone proves the request (32 random characters, mailed to the owner, 24 h, one
 * use), so without a session it is consumed here and the user it names is deleted. The callbackURL
 * is checked like better-auth's own origin check would.
 */
export async function deleteWithMailedLinkSignedOut(ctx: AuthHookContext, db: Db) {
  const query = ctx.query as { token?: unknown; callbackURL?: unknown } | undefined;
  if (typeof query?.token !== "string") return; // the endpoint's validation answers
  const session = await getSessionFromCtx(ctx);
  const callbackURL = typeof query.callbackURL === "string" ? query.callbackURL : undefined;
  if (callbackURL && !ctx.context.isTrustedOrigin(callbackURL, { allowRelativePaths: true })) {
    throw APIError.from("FORBIDDEN", { code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
  }
  const identifier = `delete-account-${query.token}`;
  const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
  if (!pending || new Date(pending.expiresAt).getTime() < Date.now()) throw APIError.from("NOT_FOUND", { code: "INVALID_TOKEN", message: "Invalid token" });
  // Signed in as the account's owner: better-auth's own path. Signed in as someone else: refused
  // without spending the owner's link (better-auth 1.7 would spend it).
  if (session?.user.id === pending.value) return;
  const user = session ? null : await ctx.context.internalAdapter.findUserById(pending.value);
  if (!user) throw APIError.from("NOT_FOUND", { code: "INVALID_TOKEN", message: "Invalid token" });
  // Ownership may have changed since the mail went out (the same check as beforeDelete).
  await assertNotSoleOwner(db, user.id);
  const consumed = await ctx.context.internalAdapter.consumeVerificationValue(identifier);
  if (!consumed || consumed.value !== user.id) throw APIError.from("NOT_FOUND", { code: "INVALID_TOKEN", message: "Invalid token" });
  await ctx.context.internalAdapter.deleteUser(user.id);
  await ctx.context.internalAdapter.deleteUserSessions(user.id);
  deleteSessionCookie(ctx);
  if (callbackURL) throw ctx.redirect(callbackURL);
  return ctx.json({ success: true, message: "User deleted" });
}
