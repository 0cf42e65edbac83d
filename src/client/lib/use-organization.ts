import { useQuery } from "@tanstack/react-query";
import { useRouteContext } from "@tanstack/react-router";
import { fullOrganizationQueryOptions } from "./organization";

/** The active organization id resolved by the authenticated layout (null: the user has none). */
export function useActiveOrganizationId(): string | null {
  return useRouteContext({ from: "/_authenticated", select: (context) => context.activeOrganizationId });
}

/** The active organization with its members, invitations and teams. */
export function useFullOrganization() {
  const organizationId = useActiveOrganizationId();
  return useQuery({ ...fullOrganizationQueryOptions(organizationId ?? ""), enabled: Boolean(organizationId) });
}
