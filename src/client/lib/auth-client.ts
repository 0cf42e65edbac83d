import { createAuthClient } from "better-auth/react";
import { deviceAuthorizationClient, organizationClient } from "better-auth/client/plugins";

/**
 * The better-auth client. The organization plugin's default access-control table is exactly the
 * spec's owner/admin/member table (§6), so `checkRolePermission` knows the built-in roles; an
 * organization's custom roles come from `listRoles` (lib/organization-roles.ts).
 *
 * better-auth 1.7 has no `genericOAuthClient`: providers registered through the server's generic
 * OAuth plugin (Google via a discovery URL) are used through the ordinary `signIn.social` and
 * `linkSocial` endpoints, so the client treats both provider flows alike.
 */
export const authClient = createAuthClient({
  baseURL: window.location.origin,
  basePath: "/api/auth",
  fetchOptions: { credentials: "same-origin" },
  // dynamicAccessControl: organization roles (custom roles per organization); the device client
  // serves the /device page's approve and deny.
  plugins: [organizationClient({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } }), deviceAuthorizationClient()],
});

export type AuthSession = typeof authClient.$Infer.Session;
export type FullOrganization = typeof authClient.$Infer.ActiveOrganization;
export type OrganizationMember = typeof authClient.$Infer.Member;
export type OrganizationInvitation = typeof authClient.$Infer.Invitation;
export type OrganizationTeam = typeof authClient.$Infer.Team;
