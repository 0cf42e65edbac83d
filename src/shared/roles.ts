/**
 * The built-in organization role names (spec §6) and how a member's role column is read. What a
 * role may do is never decided by its name: see the permission table (permissions.ts).
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
