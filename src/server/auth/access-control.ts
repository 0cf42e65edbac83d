import { createAccessControl } from "better-auth/plugins/access";

/**
 * The organization permission table of the product spec (§6), verbatim. The role-matrix test
 * compares every role × resource × action against this file and the spec's table.
 */
export const statements = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
} as const;

export const ac = createAccessControl(statements);

export const owner = ac.newRole({
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
});

export const admin = ac.newRole({
  organization: ["update"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
});

export const member = ac.newRole({
  organization: [],
  member: [],
  invitation: [],
  team: [],
  ac: ["read"],
});

export const roles = { owner, admin, member };
export type RoleName = keyof typeof roles;
export const ROLE_NAMES = Object.keys(roles) as RoleName[];

/** A member's role column may hold several comma-separated roles; any one suffices. */
export function parseRoles(role: string): string[] {
  return role
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Project management is not part of the spec's table; owners and admins may do it. */
export function canManageProjects(role: string): boolean {
  return parseRoles(role).some((name) => name === "owner" || name === "admin");
}
