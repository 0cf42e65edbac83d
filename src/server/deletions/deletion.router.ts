import { DeleteIssueInput, DeleteOrganizationInput, DeletionIdInput, EraseUserDataInput } from "../../shared/deletion.inputs";
import { ProjectIdInput } from "../../shared/project.inputs";
import { orgProcedure, protectedProcedure, router } from "../trpc/init";
import { organizationDeletionImpact, requestOrganizationDeletion } from "./organization-deletion.service";
import * as service from "./deletion.service";

/** The screens' twins of deletion.rest.ts (project deletion itself is `project.delete`). */
export const deletionRouter = router({
  list: orgProcedure.query(({ ctx }) => service.listDeletions(ctx)),
  get: orgProcedure.input(DeletionIdInput).query(({ ctx, input }) => service.getDeletion(ctx, input.deletionId)),
  deleteIssue: orgProcedure.input(DeleteIssueInput).mutation(({ ctx, input }) => service.requestIssueDeletion(ctx, input)),
  eraseUserData: orgProcedure.input(EraseUserDataInput).mutation(({ ctx, input }) => service.requestUserDataErasure(ctx, input)),
  deleteOrganization: orgProcedure.input(DeleteOrganizationInput).mutation(({ ctx, input }) => requestOrganizationDeletion(ctx, input)),
  organizationImpact: orgProcedure.query(({ ctx }) => organizationDeletionImpact(ctx)),
  /** The caller's own deletion in any organization: an organization's outlives their membership. */
  requested: protectedProcedure.input(DeletionIdInput).query(({ ctx, input }) => service.getRequestedDeletion(ctx, ctx.user.id, input.deletionId)),
  projectImpact: orgProcedure.input(ProjectIdInput).query(({ ctx, input }) => service.projectDeletionImpact(ctx, input.projectId)),
});
