import type { FullOrganization } from "@/client/lib/auth-client";

/** What every card of the organization settings screen receives. */
export interface OrganizationCardProps {
  organization: FullOrganization;
  currentUserId: string;
}
