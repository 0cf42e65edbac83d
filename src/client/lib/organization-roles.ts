import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PermissionMap } from "@/shared/permissions";
import { authClient } from "./auth-client";
import { unwrap } from "./api-error";
import { useActiveOrganizationId } from "./use-organization";
import { usePermissions } from "./use-permissions";

/** An organization role (spec §3): a custom role and its permission map. */
export interface CustomRole {
  id: string;
  role: string;
  permission: PermissionMap;
}

export const organizationRoleKeys = {
  list: (organizationId: string) => ["auth", "organization", organizationId, "roles"] as const,
};

/** better-auth stores the map as JSON text; depending on the call it answers it parsed or not. */
function parsePermission(permission: unknown): PermissionMap {
  if (typeof permission === "string") {
    try {
      return JSON.parse(permission) as PermissionMap;
    } catch {
      return {};
    }
  }
  return (permission ?? {}) as PermissionMap;
}

export function organizationRolesQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: organizationRoleKeys.list(organizationId),
    queryFn: async (): Promise<CustomRole[]> => {
      const roles = (await unwrap(authClient.organization.listRoles({ query: { organizationId } }))) ?? [];
      return roles.map((row: { id: string; role: string; permission: unknown }) => ({
        id: row.id,
        role: row.role,
        permission: parsePermission(row.permission),
      }));
    },
  });
}

/** The active organization's custom roles, asked for only by a role that may read them (ac:read); others get no data and no error. */
export function useOrganizationRoles() {
  const organizationId = useActiveOrganizationId();
  const mayRead = usePermissions().can("ac:read");
  return useQuery({ ...organizationRolesQueryOptions(organizationId ?? ""), enabled: Boolean(organizationId) && mayRead });
}
