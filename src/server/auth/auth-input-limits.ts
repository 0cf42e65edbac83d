import { z } from "zod";
import { UserName } from "../../shared/auth-forms";
import {
  CreateOrganizationInput,
  FullOrganizationQuery,
  ListMembersQuery,
  OrganizationMetadata,
  OrganizationUpdate,
  TeamName,
} from "../../shared/organization.inputs";
import { CustomRoleName, PermissionMapInput } from "../../shared/custom-roles";
import { hasNul, ImageUrl, NUL_MESSAGE } from "../../shared/text.inputs";
import { validationError } from "./spec-answers";

/**
 * Limits better-auth does not apply itself: lengths of what members type (names, slugs, metadata),
 * parameters it hands to the database unchecked (list-members' sortBy and filterField were 500s),
 * and NUL, which PostgreSQL refuses in text. Each rule only checks: keys it does not name are
 * left to better-auth's own validation. Refusals are the spec's: 400 `{ code: VALIDATION_ERROR, message: "Invalid body parameters", details }`.
 */
const BODY_RULES: Record<string, z.ZodType> = {
  "/sign-up/email": z.object({ name: UserName, image: ImageUrl.nullish() }),
  "/update-user": z.object({ name: UserName.optional(), image: ImageUrl.nullish() }),
  "/organization/create": CreateOrganizationInput.extend({ logo: ImageUrl.nullish(), metadata: OrganizationMetadata.optional() }),
  "/organization/update": z.object({ data: OrganizationUpdate }),
  "/organization/create-team": z.object({ name: TeamName }),
  "/organization/update-team": z.object({ data: z.object({ name: TeamName.optional() }) }),
  "/organization/create-role": z.object({ role: CustomRoleName, permission: PermissionMapInput }),
  "/organization/update-role": z.object({ data: z.object({ roleName: CustomRoleName.optional(), permission: PermissionMapInput.optional() }) }),
};

const QUERY_RULES: Record<string, z.ZodType> = {
  "/organization/list-members": ListMembersQuery,
  "/organization/get-full-organization": FullOrganizationQuery,
};

/** Password fields are hashed, never stored as text, so NUL in them is the user's business. */
const PASSWORD_KEYS = new Set(["password", "newPassword", "currentPassword"]);

interface Visit {
  value: unknown;
  key: string;
  parent: Visit | null;
}

/**
 * Where the first NUL sits in a parsed body or query. Iterative with parent links, so deep nesting
 * neither overflows the stack nor costs a path copy per level.
 */
function nulPath(root: unknown): string[] | null {
  const stack: Visit[] = [{ value: root, key: "", parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    if (typeof visit.value === "string") {
      if (!hasNul(visit.value)) continue;
      const path: string[] = [];
      for (let at: Visit | null = visit; at?.parent; at = at.parent) path.push(at.key);
      return path.reverse();
    }
    if (typeof visit.value !== "object" || visit.value === null) continue;
    for (const [key, value] of Object.entries(visit.value)) {
      if (visit.parent === null && PASSWORD_KEYS.has(key)) continue;
      stack.push({ value, key, parent: visit });
    }
  }
  return null;
}

/** better-call's own format: `[body.name] message; [query.limit] message`. */
const describe = (where: "body" | "query", issues: z.core.$ZodIssue[]) =>
  issues.map((issue) => `[${[where, ...issue.path.map(String)].join(".")}] ${issue.message}`).join("; ");

/** Throws a 400 for input of `path` that breaks a limit; otherwise returns and better-auth goes on. */
export function checkAuthInput(path: string, body: unknown, query: unknown) {
  for (const [where, value] of [
    ["body", body],
    ["query", query],
  ] as const) {
    const at = nulPath(value);
    if (at) throw validationError(where, `[${[where, ...at].join(".")}] ${NUL_MESSAGE}`);
  }
  const bodyRule = BODY_RULES[path];
  if (bodyRule) {
    const result = bodyRule.safeParse(body ?? {});
    if (!result.success) throw validationError("body", describe("body", result.error.issues));
  }
  const queryRule = QUERY_RULES[path];
  if (queryRule) {
    const result = queryRule.safeParse(query ?? {});
    if (!result.success) throw validationError("query", describe("query", result.error.issues));
  }
}
