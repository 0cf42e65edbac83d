import type { FullOrganization } from "@/client/lib/auth-client";

/** What every card of the organization settings screen receives. */
export interface OrganizationCardProps {
  organization: FullOrganization;
  /** The signed-in user's role here; controls it does not allow are hidden (the server checks again). */
  role: string | null;
  currentUserId: string;
}
