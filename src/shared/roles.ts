/**
 * Organization roles (spec §6) and the rules built on them that client and server both apply: the
 * client only to hide controls, the server to refuse. The permission table itself is better-auth's
 * (server/auth/access-control.ts).
 */
export const ORGANIZATION_ROLES = ["member", "admin", "owner"] as const;
export type OrganizationRoleName = (typeof ORGANIZATION_ROLES)[number];

/** A member's role column may hold several comma-separated roles; any one suffices. */
export function parseRoles(role: string | null | undefined): string[] {
  return (role ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

function hasAnyRole(role: string | null | undefined, allowed: readonly OrganizationRoleName[]): boolean {
  return parseRoles(role).some((name) => (allowed as readonly string[]).includes(name));
}

/** Project management is not part of the spec's table; owners and admins may do it (keys included). */
export function canManageProjects(role: string | null | undefined): boolean {
  return hasAnyRole(role, ["owner", "admin"]);
}

/** Any member may triage (owner, admin or member); a role outside the table may only read. */
export function canTriageIssues(role: string | null | undefined): boolean {
  return hasAnyRole(role, ORGANIZATION_ROLES);
}

/** Connecting the AWS WAF integration and blocking addresses: owners and admins; members read. */
export function canManageIntegrations(role: string | null | undefined): boolean {
  return hasAnyRole(role, ["owner", "admin"]);
}
