import { z } from "zod";
import { PERMISSION_STATEMENTS, type PermissionResource } from "./permissions";
import { ORGANIZATION_ROLES } from "./roles";

/**
 * Organization roles (spec §3, §6): custom roles with a permission map per organization, next to
 * the built-in owner, admin and member. The resources and actions a map may name are the
 * permission table's (permissions.ts).
 */
export const CUSTOM_ROLE_NAME_MAX_LENGTH = 40;

/** Stored in members' comma-separated role column, so no commas or spaces; never a built-in name. */
export const CustomRoleName = z
  .string()
  .trim()
  .min(2, "Role names are at least 2 characters")
  .max(CUSTOM_ROLE_NAME_MAX_LENGTH, `Role names are at most ${CUSTOM_ROLE_NAME_MAX_LENGTH} characters`)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Use lowercase letters, digits and single dashes")
  .refine((name) => !(ORGANIZATION_ROLES as readonly string[]).includes(name), "Owner, admin and member are built in");

const knownActions = (resource: string, actions: string[]) =>
  resource in PERMISSION_STATEMENTS && actions.every((action) => (PERMISSION_STATEMENTS[resource as PermissionResource] as readonly string[]).includes(action));

export const PermissionMapInput = z
  .record(z.string(), z.array(z.string()).max(10))
  .refine((map) => Object.entries(map).every(([resource, actions]) => knownActions(resource, actions)), "Unknown resource or action");

/** A role's built-in name or custom name, for a menu: "Admin", "triager". */
export function isBuiltInRole(name: string) {
  return (ORGANIZATION_ROLES as readonly string[]).includes(name);
}
