import { and, eq, sql } from "drizzle-orm";
import type { AuthSession } from "../auth/auth";
import type { RequestContext } from "../context";
import { preparedPerDb } from "../db/prepared-per-db";
import { member } from "../db/schema/index";
import { AppError, notFound } from "../errors";
import { selectMembershipByRef } from "./organization.queries";

/** The organization a caller acts in, as their membership row says. */
export interface OrgScope {
  organizationId: string;
  userId: string;
  role: string;
}

/** The organization the session has made active (better-auth's organization plugin keeps it on the session row). */
export function activeOrganizationIdOf(session: AuthSession | null): string | null {
  return session?.session.activeOrganizationId ?? null;
}

const memberRole = preparedPerDb((db) =>
  db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.organizationId, sql.placeholder("organizationId")), eq(member.userId, sql.placeholder("userId"))))
    .limit(1)
    .prepare("member_role"),
);

/**
 * The one membership check, used by `orgProcedure` and both REST wrappers. `organizationId` is a
 * path's `:orgId`, or the session's active organization for paths without one; only the latter
 * can be missing, hence the message. A non-member gets the same NOT_FOUND as a missing
 * organization, so ids of other tenants reveal nothing. Read from the database on every request:
 * a member removed a second ago is refused although their session still names the organization.
 */
export async function resolveOrgScope(ctx: Pick<RequestContext, "db" | "session">, organizationId: string | null | undefined): Promise<OrgScope> {
  if (!ctx.session) throw new AppError("UNAUTHORIZED", "Unauthorized");
  if (!organizationId) throw new AppError("NOT_FOUND", "No active organization");
  const userId = ctx.session.user.id;
  const [row] = await memberRole(ctx.db).execute({ organizationId, userId });
  if (!row) throw notFound("Organization");
  return { organizationId, userId, role: row.role };
}

/**
 * `resolveOrgScope` for a path's `:orgId`, which names the organization by its id or its slug.
 * The name is looked up among the caller's own memberships only: another organization's slug
 * answers exactly what its id (or a name nobody holds) does.
 */
export async function resolveOrgScopeByRef(ctx: Pick<RequestContext, "db" | "session">, ref: string): Promise<OrgScope> {
  if (!ctx.session) throw new AppError("UNAUTHORIZED", "Unauthorized");
  const userId = ctx.session.user.id;
  const row = await selectMembershipByRef(ctx.db, userId, ref);
  if (!row) throw notFound("Organization");
  return { organizationId: row.organizationId, userId, role: row.role };
}
