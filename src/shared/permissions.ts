import { parseRoles, type OrganizationRoleName } from "./roles";

/**
 * THE permission table: every resource and action an organization role can grant. The first five
 * resources are the spec's (§6: organization administration, which better-auth enforces); the
 * rest are the product's own. The server refuses (organizations/permissions.ts), better-auth
 * stores and checks custom roles against it (auth/access-control.ts), and the screens hide or
 * disable controls by it (client/lib/use-permissions.ts): one table, no role names anywhere else.
 */
export const PERMISSION_STATEMENTS = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
  project: ["create", "update", "delete", "keys"],
  issue: ["triage", "delete"],
  alert: ["manage", "snooze"],
  integration: ["connect", "block"],
  apiToken: ["create", "revoke"],
  billing: ["manage"],
  release: ["manage"],
} as const;

export type PermissionResource = keyof typeof PERMISSION_STATEMENTS;
/** One grant, written `resource:action` ("project:create"). */
export type Permission = { [R in PermissionResource]: `${R}:${(typeof PERMISSION_STATEMENTS)[R][number]}` }[PermissionResource];
/** A role's grants as better-auth stores them: resource → actions. */
export type PermissionMap = Partial<Record<PermissionResource, string[]>>;

export const ALL_PERMISSIONS: readonly Permission[] = Object.entries(PERMISSION_STATEMENTS).flatMap(([resource, actions]) =>
  actions.map((action) => `${resource}:${action}` as Permission),
);

export const RESOURCE_LABELS: Record<PermissionResource, string> = {
  organization: "Organization",
  member: "Members",
  invitation: "Invitations",
  team: "Teams",
  ac: "Roles",
  project: "Projects",
  issue: "Issues",
  alert: "Alerts",
  integration: "Integrations",
  apiToken: "API tokens",
  billing: "Billing",
  release: "Releases",
};

/** The map better-auth stores for a list of grants. */
export function permissionMapOf(permissions: readonly Permission[]): PermissionMap {
  const map: PermissionMap = {};
  for (const permission of permissions) {
    const [resource, action] = permission.split(":") as [PermissionResource, string];
    (map[resource] ??= []).push(action);
  }
  return map;
}

/**
 * The built-in roles. Owners may do everything; admins everything but delete the organization
 * (spec §6); members triage and read — they change issues and snooze alert rules (which quiets
 * alerts for a while and changes no rule), and read the organization's roles.
 */
export const BUILT_IN_ROLE_PERMISSIONS: Record<OrganizationRoleName, PermissionMap> = {
  owner: permissionMapOf(ALL_PERMISSIONS),
  admin: permissionMapOf(ALL_PERMISSIONS.filter((permission) => permission !== "organization:delete")),
  member: permissionMapOf(["ac:read", "issue:triage", "alert:snooze"]),
};

/** The permissions a map grants, ignoring names the table does not know (an old custom role's). */
export function permissionsOfMap(map: PermissionMap): Permission[] {
  return ALL_PERMISSIONS.filter((permission) => {
    const [resource, action] = permission.split(":") as [PermissionResource, string];
    return map[resource]?.includes(action) ?? false;
  });
}

/** A role name's permissions: a built-in role's, or a custom role's from `customRoles` (unknown names grant nothing). */
export function permissionsOfRole(role: string | null | undefined, customRoles: ReadonlyMap<string, PermissionMap>): Set<Permission> {
  const granted = new Set<Permission>();
  for (const name of parseRoles(role)) {
    const map = (BUILT_IN_ROLE_PERMISSIONS as Record<string, PermissionMap>)[name] ?? customRoles.get(name);
    if (map) for (const permission of permissionsOfMap(map)) granted.add(permission);
  }
  return granted;
}

/** The permissions in `wanted` that `held` lacks: a role may be given only when this is empty. */
export function permissionsBeyond(held: ReadonlySet<Permission>, wanted: Iterable<Permission>): Permission[] {
  return [...wanted].filter((permission) => !held.has(permission));
}

/**
 * Why a control is missing or a call refused, per grant: the server's FORBIDDEN message and the
 * reason a screen shows beside a disabled control.
 */
export const PERMISSION_REFUSALS: Record<Permission, string> = {
  "organization:update": "Your role cannot update the organization",
  "organization:delete": "Your role cannot delete the organization",
  "member:create": "Your role cannot add members",
  "member:update": "Your role cannot change members' roles",
  "member:delete": "Your role cannot remove members",
  "invitation:create": "Your role cannot invite people",
  "invitation:cancel": "Your role cannot cancel invitations",
  "team:create": "Your role cannot create teams",
  "team:update": "Your role cannot change teams",
  "team:delete": "Your role cannot delete teams",
  "ac:create": "Your role cannot create roles",
  "ac:read": "Your role cannot see the organization's roles",
  "ac:update": "Your role cannot change roles",
  "ac:delete": "Your role cannot delete roles",
  "project:create": "Your role cannot create projects",
  "project:update": "Your role cannot change projects",
  "project:delete": "Your role cannot delete projects",
  "project:keys": "Your role cannot manage project keys",
  "issue:triage": "Your role cannot change issues",
  "issue:delete": "Your role cannot delete issues",
  "alert:manage": "Your role cannot change alert rules",
  "alert:snooze": "Your role cannot snooze alert rules",
  "integration:connect": "Your role cannot connect integrations",
  "integration:block": "Your role cannot block addresses",
  "apiToken:create": "Your role cannot create API tokens",
  "apiToken:revoke": "Your role cannot revoke API tokens",
  "billing:manage": "Your role cannot manage billing",
  "release:manage": "Your role cannot manage releases",
};
