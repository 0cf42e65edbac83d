import { createAccessControl } from "better-auth/plugins/access";
import { BUILT_IN_ROLE_PERMISSIONS, PERMISSION_STATEMENTS } from "../../shared/permissions";
import type { OrganizationRoleName } from "../../shared/roles";

/**
 * better-auth's view of the one permission table (shared/permissions.ts): it checks the spec's
 * organization-administration resources on its own endpoints and accepts custom roles naming any
 * resource of the table. The role-matrix test compares every role × resource × action against a
 * table written out by hand.
 */
export const statements = PERMISSION_STATEMENTS;

export const ac = createAccessControl(statements);

const roleOf = (name: OrganizationRoleName) => ac.newRole(BUILT_IN_ROLE_PERMISSIONS[name] as Parameters<typeof ac.newRole>[0]);

/** Exactly the shared role names (shared/roles.ts), which the client offers and parses. */
export const roles = { owner: roleOf("owner"), admin: roleOf("admin"), member: roleOf("member") } satisfies Record<OrganizationRoleName, unknown>;
