import { z } from "zod";
import { ProjectIdInput } from "./project.inputs";
import { IssueScope } from "./triage.inputs";

/** One deletion of the caller's organization (its progress). */
export const DeletionIdInput = z.object({ deletionId: z.uuid("Invalid deletion id") });
export type DeletionIdInput = z.infer<typeof DeletionIdInput>;

/** Delete one issue with its occurrences. */
export const DeleteIssueInput = IssueScope;
export type DeleteIssueInput = z.infer<typeof DeleteIssueInput>;

/** Delete one project with everything it holds. */
export const DeleteProjectInput = ProjectIdInput;
export type DeleteProjectInput = z.infer<typeof DeleteProjectInput>;

/**
 * Erase one person's occurrences across the organization's projects, named by exactly one of the
 * identifiers an SDK sends on `user` (id, email, IP address).
 */
export const EraseUserDataInput = z
  .object({
    userId: z.string().trim().min(1).max(200).optional(),
    email: z.string().trim().min(1).max(320).optional(),
    ipAddress: z.string().trim().min(1).max(64).optional(),
  })
  .strict()
  .refine((input) => [input.userId, input.email, input.ipAddress].filter((value) => value !== undefined).length === 1, {
    message: "Give exactly one of userId, email or ipAddress",
  });
export type EraseUserDataInput = z.infer<typeof EraseUserDataInput>;

/** Delete the caller's active organization; naming it guards against deleting another one the session moved to. */
export const DeleteOrganizationInput = z.object({ organizationId: z.string().min(1) });
export type DeleteOrganizationInput = z.infer<typeof DeleteOrganizationInput>;
