import { useMemo } from "react";
import { mayGiveRole } from "@/shared/role-grants";
import { ORGANIZATION_ROLES } from "@/shared/roles";
import { useOrganizationRoles } from "./organization-roles";
import { usePermissions } from "./use-permissions";

/**
 * The roles the signed-in user may give (members' role select, the invite form), by the same rule
 * the server applies (shared/role-grants.ts): all the role's permissions held, owner by owners only.
 * Custom roles are known only to a role that may read them (ac:read).
 */
export function useRoleGrants() {
  const permissions = usePermissions();
  const customRoles = useOrganizationRoles().data;
  return useMemo(() => {
    const customRoleMaps = new Map((customRoles ?? []).map((custom) => [custom.role, custom.permission]));
    const allRoles = [...ORGANIZATION_ROLES, ...customRoleMaps.keys()];
    const refusalOf = (roleNames: string) => mayGiveRole(permissions.granted, permissions.isOwner, roleNames, customRoleMaps);
    return {
      /** Every role of the organization the user can see: built-in, then custom. */
      allRoles,
      /** The roles the user may give now (none until their permissions are known). */
      givable: permissions.isPending ? [] : allRoles.filter((name) => refusalOf(name) === null),
      refusalOf,
      isOwner: permissions.isOwner,
    };
  }, [permissions, customRoles]);
}
