import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { authClient, type AuthSession } from "./auth-client";
import { unwrap } from "./api-error";
import { isSessionQueryKey, refreshSession } from "./session";

export const organizationKeys = {
  all: ["auth", "organizations"] as const,
  full: (organizationId: string) => ["auth", "organization", organizationId] as const,
  userInvitations: ["auth", "user-invitations"] as const,
};

export function organizationsQueryOptions() {
  return queryOptions({
    queryKey: organizationKeys.all,
    queryFn: async () => (await unwrap(authClient.organization.list())) ?? [],
  });
}

export function fullOrganizationQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: organizationKeys.full(organizationId),
    queryFn: () => unwrap(authClient.organization.getFullOrganization({ query: { organizationId } })),
  });
}

export function userInvitationsQueryOptions() {
  return queryOptions({
    queryKey: organizationKeys.userInvitations,
    queryFn: async () => (await unwrap(authClient.organization.listUserInvitations())) ?? [],
  });
}

export function activeOrganizationIdOf(session: AuthSession | null | undefined): string | null {
  return session?.session.activeOrganizationId ?? null;
}

/**
 * The organization the screens act in. A member of organizations without an active one (a new
 * session, or the active one was deleted) gets the first organization made active, so they never
 * see an empty dashboard by accident. Returns null when the user belongs to no organization.
 */
export async function ensureActiveOrganization(queryClient: QueryClient, session: AuthSession): Promise<string | null> {
  const active = activeOrganizationIdOf(session);
  if (active) return active;
  const organizations = await queryClient.ensureQueryData(organizationsQueryOptions());
  const first = organizations[0];
  if (!first) return null;
  await unwrap(authClient.organization.setActive({ organizationId: first.id }));
  const refreshed = await refreshSession(queryClient);
  return activeOrganizationIdOf(refreshed) ?? first.id;
}

/**
 * Makes another organization active. Every cached answer belonged to the previous organization,
 * so everything but the session is dropped before the session is re-read.
 */
export async function switchOrganization(queryClient: QueryClient, organizationId: string | null) {
  await unwrap(authClient.organization.setActive({ organizationId }));
  queryClient.removeQueries({ predicate: (query) => !isSessionQueryKey(query.queryKey) });
  await refreshSession(queryClient);
  await queryClient.invalidateQueries();
}

/** Lowercase, dash-separated slug suggested from an organization name. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
}
