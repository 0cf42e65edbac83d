import type { ApiTokenScope } from "@/shared/api-token.inputs";

/**
 * A first call with a new token, runnable as it is: the organization's projects when the token may
 * read them, else the organization itself (which every token may read). The path takes the slug,
 * so the example says which organization it reaches.
 */
export function apiTokenCurlExample(origin: string, organizationSlug: string, secret: string, scopes: readonly ApiTokenScope[]): string {
  const path = `/api/v1/organizations/${encodeURIComponent(organizationSlug)}${scopes.includes("project:read") ? "/projects" : ""}`;
  return `curl -H "Authorization: Bearer ${secret}" ${origin}${path}`;
}
