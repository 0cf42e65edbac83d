import { APIError, getSessionFromCtx } from "better-auth/api";
import { hasPermission } from "better-auth/plugins";
import { and, eq, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { member } from "../db/schema/index";
import { parseRoles } from "../../shared/roles";
import type { AuthHookContext } from "./hook-context";

type OrganizationOptions = Parameters<typeof hasPermission>[0]["options"];

export const ONLY_OWNERS_REMOVE_OWNERS = "Only an owner can remove an owner";

const forbidden = (message: string) => APIError.from("FORBIDDEN", { code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER", message });

/**
 * Refusals of /organization/remove-member are permission refusals, 403 (spec §6), decided before
 * better-auth's endpoint because a status cannot be changed after it (the answer keeps its own):
 * - a role without `member: delete` removing someone else: better-auth 1.7 answers 401;
 * - an admin removing an owner: better-auth answers 400 "You cannot leave the organization as the
 *   only owner", which is about something else entirely.
 * The owner-count rules for owners themselves stay better-auth's.
 */
export async function refuseOwnerRemovalByNonOwner(ctx: AuthHookContext, db: Db) {
  const body = ctx.body as { memberIdOrEmail?: unknown; organizationId?: unknown } | undefined;
  const target = body?.memberIdOrEmail;
  if (typeof target !== "string") return;
  const session = await getSessionFromCtx(ctx);
  if (!session) return;
  const organizationId = typeof body?.organizationId === "string" ? body.organizationId : session.session.activeOrganizationId;
  if (!organizationId) return;
  const [caller] = await db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.organizationId, organizationId), eq(member.userId, session.user.id)));
  if (!caller || parseRoles(caller.role).includes("owner")) return;
  const options = (ctx.context.getPlugin("organization") as { options: OrganizationOptions } | null)?.options;
  if (!options) return;
  const mayDelete = await hasPermission({ role: caller.role, options, permissions: { member: ["delete"] }, organizationId }, ctx);
  const removed = await ctx.context.internalAdapter.findUserByEmail(target.toLowerCase());
  const [row] = await db
    .select({ role: member.role, userId: member.userId })
    .from(member)
    .where(and(eq(member.organizationId, organizationId), removed ? or(eq(member.id, target), eq(member.userId, removed.user.id)) : eq(member.id, target)));
  if (!row || row.userId === session.user.id) return; // unknown member or leaving: better-auth's answers
  if (!mayDelete) throw forbidden("You are not allowed to delete this member");
  if (parseRoles(row.role).includes("owner")) throw forbidden(ONLY_OWNERS_REMOVE_OWNERS);
}
