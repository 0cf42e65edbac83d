import { permissionsBeyond, permissionsOfRole, type Permission, type PermissionMap } from "./permissions";
import { isBuiltInRole } from "./custom-roles";
import { parseRoles } from "./roles";

/** A custom role is defined only with permissions its editor holds: the server's refusal and the role editor's note. */
export const GRANT_ONLY_HELD = "You can only grant permissions you hold";

/**
 * Who may give which role (issue 31): a role can be given only when every permission it grants is
 * held by the giver, so nobody hands out more than they have; only an owner makes someone owner.
 * The server refuses by it (the better-auth hooks) and the screens offer only the roles it allows.
 *
 * `roleNames` is a member's role column (one name or several, comma-separated); `customRoleMaps`
 * holds the organization's custom roles by name (built-in roles need none). Returns the refusal
 * reason, or null when the giver may give it.
 */
export function mayGiveRole(
  giverPermissions: ReadonlySet<Permission>,
  giverIsOwner: boolean,
  roleNames: string,
  customRoleMaps: ReadonlyMap<string, PermissionMap>,
): string | null {
  const names = parseRoles(roleNames);
  if (names.length === 0) return "Choose a role";
  const unknown = names.find((name) => !isBuiltInRole(name) && !customRoleMaps.has(name));
  if (unknown) return `There is no role named ${unknown}`;
  if (names.includes("owner") && !giverIsOwner) return "Only an owner can make someone an owner";
  const beyond = permissionsBeyond(giverPermissions, permissionsOfRole(roleNames, customRoleMaps));
  if (beyond.length > 0) return `You can only give a role whose permissions you hold (it also grants ${beyond.join(", ")})`;
  return null;
}

/**
 * Whether the giver may change a member's role at all, before the new role is looked at: nobody
 * changes their own role, and only an owner changes an owner's. Returns the reason, or null.
 */
export function mayChangeRoleOf(giverIsOwner: boolean, isSelf: boolean, currentRoleNames: string): string | null {
  if (isSelf) return "Nobody can change their own role";
  if (parseRoles(currentRoleNames).includes("owner") && !giverIsOwner) return "Only an owner can change an owner's role";
  return null;
}
