import { z } from "zod";
import { PLATFORMS } from "./platforms";

// What the project API answers (tRPC and REST alike); the OpenAPI document is generated from these.

export const ProjectKeyView = z.object({
  id: z.uuid(),
  label: z.string(),
  publicKey: z.string(),
  dsn: z.string(),
  createdAt: z.date(),
  revokedAt: z.date().nullable(),
  /** Whether this is the key whose DSN is the project's DSN (chosen by the user, else the oldest active key). */
  isPrimary: z.boolean(),
});
export type ProjectKeyView = z.infer<typeof ProjectKeyView>;

export const ProjectView = z.object({
  id: z.uuid(),
  /** better-auth organization ids are not UUIDs. */
  organizationId: z.string(),
  number: z.number().int(),
  name: z.string(),
  /** The URL name, unique in the organization (`SENTRY_PROJECT`). */
  slug: z.string(),
  platform: z.enum(PLATFORMS),
  description: z.string().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  /** DSN of the primary key (what setup snippets show); adding a key does not change it. */
  dsn: z.string().nullable(),
  /** The same key, as the native SDK's x-api-key. */
  apiKey: z.string().nullable(),
  keys: z.array(ProjectKeyView),
});
export type ProjectView = z.infer<typeof ProjectView>;
