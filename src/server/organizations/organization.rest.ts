import { OrganizationView } from "../../shared/organization.views";
import { OrganizationList } from "../rest/openapi-views";
import type { RestRoute } from "../rest/rest-route";
import { getOrganization, listOrganizations } from "./organization.service";

const tag = "Organizations";

/**
 * The API's front door: where a caller finds the organization ids (and slugs) every other path
 * starts with. Any API token may read its own organization, whatever its scopes.
 */
export const organizationRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: "/organizations",
    summary: "List the caller's organizations",
    tag,
    output: OrganizationList,
    response: "The organizations the signed-in user belongs to, or the API token's one, with the caller's role",
    access: "caller",
    tokenScope: "any",
    handler: (ctx) => listOrganizations(ctx),
  },
  {
    method: "get",
    path: "/organizations/:orgId",
    summary: "Get an organization",
    tag,
    output: OrganizationView,
    response: "The organization with the caller's role",
    access: "organization",
    tokenScope: "any",
    handler: (ctx) => getOrganization(ctx),
  },
];
