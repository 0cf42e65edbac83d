import { z } from "zod";

export const DELETION_KINDS = ["issue", "project", "organization", "user_data"] as const;
export const DELETION_STATUSES = ["pending", "running", "done", "failed"] as const;
export type DeletionStatus = (typeof DELETION_STATUSES)[number];

/** What a deletion request answers (202): the id whose progress GET …/deletions/{deletionId} reports. */
export const DeletionRequestedView = z.object({ deletionId: z.uuid() });
export type DeletionRequestedView = z.infer<typeof DeletionRequestedView>;

/**
 * A deletion's progress and audit. `done` of `total` rows are gone; for an erasure (`user_data`)
 * `done` counts the occurrences removed and `total` equals it once the scan is over (unknown, 0,
 * while it runs). `target` of an erasure is `email:<sha256 hex>` (never the value).
 */
export const DeletionView = z.object({
  id: z.uuid(),
  kind: z.enum(DELETION_KINDS),
  target: z.string(),
  targetName: z.string().nullable(),
  status: z.enum(DELETION_STATUSES),
  done: z.number().int(),
  total: z.number().int(),
  requestedBy: z.string(),
  error: z.string().nullable(),
  createdAt: z.date(),
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
});
export type DeletionView = z.infer<typeof DeletionView>;

export const DeletionList = z.array(DeletionView);

/** What a deletion would remove, for the confirmation to name (issues and occurrences). */
export const DeletionImpactView = z.object({ issues: z.number().int(), occurrences: z.number().int() });
export type DeletionImpactView = z.infer<typeof DeletionImpactView>;

/** What deleting the organization would remove, for its confirmation. */
export const OrganizationDeletionImpactView = z.object({ projects: z.number().int(), issues: z.number().int(), occurrences: z.number().int() });
export type OrganizationDeletionImpactView = z.infer<typeof OrganizationDeletionImpactView>;
