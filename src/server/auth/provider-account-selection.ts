import { APIError, getSessionFromCtx } from "better-auth/api";
import type { AuthHookContext } from "./hook-context";

/**
 * Spec §7: /unlink-account, /get-access-token and /refresh-token take `{ providerId, accountId? }`
 * and /account-info takes `{ accountId }`, where accountId is the provider's id for the person
 * (what /list-accounts shows as `accountId`). better-auth 1.7 expects its own row id instead, so
 * every caller following the spec (our Settings screen included) got "Account not found". This
 * rewrites the selection to the row id of the signed-in user's matching account before the
 * endpoint runs; the endpoint then applies all its own rules (last account, freshness, tokens).
 */
const BODY_PATHS = new Set(["/unlink-account", "/get-access-token", "/refresh-token"]);

const ACCOUNT_NOT_FOUND = { code: "ACCOUNT_NOT_FOUND", message: "Account not found" };

interface Selection {
  providerId?: unknown;
  accountId?: unknown;
}

export async function selectProviderAccount(ctx: AuthHookContext) {
  const fromQuery = ctx.path === "/account-info";
  if (!fromQuery && !BODY_PATHS.has(ctx.path)) return;
  const selection = (fromQuery ? ctx.query : ctx.body) as Selection | undefined;
  if (!selection || typeof selection !== "object") return;
  const { providerId, accountId } = selection;
  if (providerId !== undefined && typeof providerId !== "string") return;
  if (accountId !== undefined && typeof accountId !== "string") return;
  // Not the spec's shape (no providerId, or /account-info without accountId): the endpoint's own
  // validation answers.
  if (fromQuery ? accountId === undefined : providerId === undefined) return;
  // A server-side caller naming a userId keeps better-auth's own semantics.
  const session = await getSessionFromCtx(ctx);
  if (!session) return; // the endpoint answers 401 itself
  const accounts = await ctx.context.internalAdapter.findAccounts(session.user.id);
  const match = accounts.find(
    (account) => (providerId === undefined || account.providerId === providerId) && (accountId === undefined || account.accountId === accountId),
  );
  // An unknown selection is "Account not found", except that unlinking the only sign-in method
  // says why it cannot be done first (better-auth checks that before looking for the account).
  if (!match) {
    if (ctx.path === "/unlink-account" && accounts.length === 1) return;
    throw APIError.from("BAD_REQUEST", ACCOUNT_NOT_FOUND);
  }
  // The endpoints validate the object they are given: rewrite it in place (providerId is not
  // part of better-auth's strict schemas).
  const target = selection as Record<string, unknown>;
  delete target.providerId;
  target.accountId = match.id;
}
