import { useMemo } from "react";
import { getQueryKey } from "@trpc/react-query";
import { PERMISSION_REFUSALS, type Permission } from "@/shared/permissions";
import { parseRoles } from "@/shared/roles";
import { trpc } from "./trpc";
import { useActiveOrganizationId } from "./use-organization";

/** The query key of `permission.mine`: invalidate it wherever the caller's role or a role's map may have changed. */
export const myPermissionsKey = getQueryKey(trpc.permission.mine);

/**
 * What the signed-in user may do in the active organization, from the server's one permission
 * table (custom roles included). Screens offer a control only when `can` says so, or disable it and
 * show `reason`; the server checks every call again. Until the answer arrives nothing is allowed,
 * so a control never flashes on and off.
 */
export function usePermissions() {
  const organizationId = useActiveOrganizationId();
  const mine = trpc.permission.mine.useQuery(undefined, { enabled: Boolean(organizationId) });
  return useMemo(() => {
    const granted = new Set<Permission>(mine.data?.permissions ?? []);
    return {
      /** The caller's role column ("admin", "triager", "member,recruiter"), null until known. */
      role: mine.data?.role ?? null,
      isOwner: parseRoles(mine.data?.role).includes("owner"),
      granted: granted as ReadonlySet<Permission>,
      isPending: mine.isPending,
      can: (permission: Permission) => granted.has(permission),
      reason: (permission: Permission) => PERMISSION_REFUSALS[permission],
      /** The reason once the answer says no; null while unknown or allowed (so no refusal flashes before the answer). */
      refusal: (permission: Permission) => (mine.data && !granted.has(permission) ? PERMISSION_REFUSALS[permission] : null),
    };
  }, [mine.data, mine.isPending]);
}

export type Permissions = ReturnType<typeof usePermissions>;
