import { and, eq, inArray } from "drizzle-orm";
import { isBuiltInRole } from "../../shared/custom-roles";
import { permissionsOfRole, PERMISSION_REFUSALS, type Permission, type PermissionMap } from "../../shared/permissions";
import { parseRoles } from "../../shared/roles";
import type { Db } from "../db/client";
import { organizationRole } from "../db/schema/index";
import { AppError } from "../errors";
import type { ServiceContext } from "../context";
import type { OrgScope } from "./org-scope";

/** better-auth keeps a custom role's map as JSON text; a map it cannot read grants nothing. */
export function parsePermissionMap(text: string): PermissionMap {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as PermissionMap) : {};
  } catch {
    return {};
  }
}

/** The organization's custom roles among `names` (built-in names need no read). */
export async function customRoleMaps(db: Db, organizationId: string, names: readonly string[]): Promise<Map<string, PermissionMap>> {
  const custom = names.filter((name) => !isBuiltInRole(name));
  if (custom.length === 0) return new Map();
  const rows = await db
    .select({ role: organizationRole.role, permission: organizationRole.permission })
    .from(organizationRole)
    .where(and(eq(organizationRole.organizationId, organizationId), inArray(organizationRole.role, custom)));
  return new Map(rows.map((row) => [row.role, parsePermissionMap(row.permission)]));
}

/** What a role string (one name or several, comma-separated) grants in the organization. */
export async function permissionsOfRoleIn(db: Db, organizationId: string, role: string | null | undefined): Promise<Set<Permission>> {
  return permissionsOfRole(role, await customRoleMaps(db, organizationId, parseRoles(role)));
}

// One read per request at most: a scope object lives for one request (org-scope.ts reads the
// membership on every request, so a role changed a second ago is what counts).
const resolved = new WeakMap<OrgScope, Promise<Set<Permission>>>();

/** The caller's permissions in their organization: their role's, built-in or custom. */
export function permissionsOf(ctx: Pick<ServiceContext, "db" | "org">): Promise<Set<Permission>> {
  let permissions = resolved.get(ctx.org);
  if (!permissions) {
    permissions = permissionsOfRoleIn(ctx.db, ctx.org.organizationId, ctx.org.role);
    resolved.set(ctx.org, permissions);
  }
  return permissions;
}

export async function can(ctx: Pick<ServiceContext, "db" | "org">, permission: Permission): Promise<boolean> {
  return (await permissionsOf(ctx)).has(permission);
}

/** Every product check goes through here: FORBIDDEN with the grant's own reason when the caller's role lacks it. */
export async function requirePermission(ctx: Pick<ServiceContext, "db" | "org">, permission: Permission): Promise<void> {
  if (!(await can(ctx, permission))) throw new AppError("FORBIDDEN", PERMISSION_REFUSALS[permission]);
}
