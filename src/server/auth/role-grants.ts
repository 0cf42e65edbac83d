import { APIError, getSessionFromCtx } from "better-auth/api";
import { and, eq } from "drizzle-orm";
import { isBuiltInRole } from "../../shared/custom-roles";
import { permissionsBeyond, permissionsOfMap, type Permission, type PermissionMap } from "../../shared/permissions";
import { GRANT_ONLY_HELD, mayChangeRoleOf, mayGiveRole } from "../../shared/role-grants";
import { parseRoles } from "../../shared/roles";
import type { Db } from "../db/client";
import { member } from "../db/schema/index";
import { customRoleMaps, permissionsOfRoleIn } from "../organizations/permissions";
import type { AuthHookContext } from "./hook-context";

/** The endpoints that give a role to someone or define what a role grants. */
export const ROLE_GRANTING_PATHS: ReadonlySet<string> = new Set([
  "/organization/invite-member",
  "/organization/update-member-role",
  "/organization/create-role",
  "/organization/update-role",
]);

const refuse = (message: string) => APIError.from("FORBIDDEN", { code: "YOU_ARE_NOT_ALLOWED_TO_GIVE_THIS_ROLE", message });

/** better-auth takes a role as "a,b" or ["a", "b"]; either way the same names. */
function roleNamesOf(role: unknown): string[] {
  if (Array.isArray(role)) return role.flatMap((name) => (typeof name === "string" ? parseRoles(name) : []));
  return typeof role === "string" ? parseRoles(role) : [];
}

interface Giver {
  organizationId: string;
  userId: string;
  isOwner: boolean;
  permissions: Set<Permission>;
}

/** The caller of an organization endpoint as their membership says; null leaves the answer to better-auth (no session, not a member). */
async function giverOf(ctx: AuthHookContext, db: Db): Promise<Giver | null> {
  const session = await getSessionFromCtx(ctx);
  if (!session) return null;
  const body = ctx.body as { organizationId?: unknown } | undefined;
  const organizationId = typeof body?.organizationId === "string" ? body.organizationId : session.session.activeOrganizationId;
  if (!organizationId) return null;
  const [row] = await db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.organizationId, organizationId), eq(member.userId, session.user.id)));
  if (!row) return null;
  return {
    organizationId,
    userId: session.user.id,
    isOwner: parseRoles(row.role).includes("owner"),
    permissions: await permissionsOfRoleIn(db, organizationId, row.role),
  };
}

/**
 * The shared rule (shared/role-grants.ts), which the screens also offer roles by. A name that is no
 * role at all is left to better-auth, which answers it 400 like any other bad input.
 */
async function assertMayGive(db: Db, giver: Giver, names: string[]) {
  const customRoles = await customRoleMaps(db, giver.organizationId, names);
  if (names.some((name) => !isBuiltInRole(name) && !customRoles.has(name))) return;
  const refusal = mayGiveRole(giver.permissions, giver.isOwner, names.join(","), customRoles);
  if (refusal) throw refuse(refusal);
}

/**
 * Finding 1 of issue 31: better-auth checks that a caller may assign roles (`member:update`,
 * `invitation:create`, `ac:*`), never WHAT is assigned — a role with only `member:update` made
 * itself admin, an admin gave itself an owner-made role holding `organization:delete`. So before
 * each endpoint that gives or defines a role:
 * - nobody changes their own role;
 * - a role is given only when the giver holds every permission it grants;
 * - only an owner gives or takes `owner` — so the organization keeps one: whoever takes it from
 *   someone is an owner who cannot change their own role (leaving and account deletion have
 *   their own sole-owner checks);
 * - a custom role is created or edited only with permissions the editor holds.
 * Refusals are 403 and change nothing (they run before the endpoint).
 */
export async function refuseRoleEscalation(ctx: AuthHookContext, db: Db) {
  const giver = await giverOf(ctx, db);
  if (!giver) return;
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  if (ctx.path === "/organization/invite-member") return assertMayGive(db, giver, roleNamesOf(body.role));
  if (ctx.path === "/organization/update-member-role") return refuseMemberRoleChange(db, giver, body);
  const permission = ctx.path === "/organization/create-role" ? body.permission : (body.data as { permission?: unknown } | undefined)?.permission;
  if (!permission || typeof permission !== "object") return;
  if (permissionsBeyond(giver.permissions, permissionsOfMap(permission as PermissionMap)).length > 0) throw refuse(GRANT_ONLY_HELD);
}

async function refuseMemberRoleChange(db: Db, giver: Giver, body: Record<string, unknown>) {
  if (typeof body.memberId !== "string") return;
  const [target] = await db
    .select({ userId: member.userId, role: member.role })
    .from(member)
    .where(and(eq(member.organizationId, giver.organizationId), eq(member.id, body.memberId)));
  if (!target) return; // better-auth answers an unknown member
  const refusal = mayChangeRoleOf(giver.isOwner, target.userId === giver.userId, target.role);
  if (refusal) throw refuse(refusal);
  await assertMayGive(db, giver, roleNamesOf(body.role));
}
