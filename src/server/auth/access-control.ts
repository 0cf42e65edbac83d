import { createAccessControl } from "better-auth/plugins/access";
import type { OrganizationRoleName } from "../../shared/roles";

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

/** Exactly the shared role names (shared/roles.ts), which the client offers and parses. */
export const roles = { owner, admin, member } satisfies Record<OrganizationRoleName, unknown>;
