import { z } from "zod";

/**
 * A repository as sentry-cli names it: `owner/repo` (GitLab subgroups add levels). The tRPC form,
 * the Sentry tool API's `POST /organizations/{org}/repos/` and the settings card share this.
 */
export const RepositoryName = z
  .string()
  .trim()
  .min(3)
  .max(200)
  .regex(/^[\w.-]+(\/[\w.-]+)+$/, "Name the repository as owner/repo");

export const CreateRepositoryInput = z.object({
  name: RepositoryName,
  provider: z
    .string()
    .trim()
    .max(64)
    .nullish()
    .transform((value) => value || null),
  url: z
    .string()
    .trim()
    .max(2048)
    .nullish()
    .transform((value) => value || null)
    .refine((value) => value === null || /^https?:\/\/[^\s]+$/i.test(value), "The URL must start with http:// or https://"),
});
export type CreateRepositoryInput = z.input<typeof CreateRepositoryInput>;

export const RepositoryIdInput = z.object({ repositoryId: z.string().uuid() });
