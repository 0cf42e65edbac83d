import type { OrganizationView } from "../../shared/organization.views";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { selectOrganizationByRef, selectOrganizationsOfUser } from "./organization.queries";
import type { OrgScope } from "./org-scope";

async function organizationOf(ctx: Pick<ServiceContext, "db">, scope: OrgScope): Promise<OrganizationView> {
  const row = await selectOrganizationByRef(ctx.db, scope.organizationId, scope.organizationId);
  // The scope was checked a moment ago; an organization deleted since is as missing as any other.
  if (!row) throw notFound("Organization");
  return { ...row, role: scope.role };
}

/** The caller's organizations with their role in each: all of a signed-in user's, or an API token's one. */
export async function listOrganizations(ctx: Pick<ServiceContext, "db"> & { userId: string; tokenOrg: OrgScope | null }): Promise<OrganizationView[]> {
  if (ctx.tokenOrg) return [await organizationOf(ctx, ctx.tokenOrg)];
  return selectOrganizationsOfUser(ctx.db, ctx.userId);
}

/** The organization the request acts in (membership or token already checked), with the caller's role. */
export function getOrganization(ctx: Pick<ServiceContext, "db" | "org">): Promise<OrganizationView> {
  return organizationOf(ctx, ctx.org);
}
