import { z } from "zod";

// What `GET /api/v1/organizations` and `GET /api/v1/organizations/{orgId}` answer.

export const OrganizationView = z.object({
  /** better-auth organization ids are not UUIDs. */
  id: z.string(),
  /** The URL name, unique across the deployment: every `{orgId}` of /api/v1 (and `{org}` of /api/0) accepts it. */
  slug: z.string(),
  name: z.string(),
  /** The caller's role in it (an API token acts with its creator's). */
  role: z.string(),
  createdAt: z.date(),
});
export type OrganizationView = z.infer<typeof OrganizationView>;
