import { DeleteIssueInput, DeletionIdInput, EraseUserDataInput } from "../../shared/deletion.inputs";
import { ProjectIdInput } from "../../shared/project.inputs";
import { orgProcedure, router } from "../trpc/init";
import * as service from "./deletion.service";

/** The screens' twins of deletion.rest.ts (project deletion itself is `project.delete`). */
export const deletionRouter = router({
  list: orgProcedure.query(({ ctx }) => service.listDeletions(ctx)),
  get: orgProcedure.input(DeletionIdInput).query(({ ctx, input }) => service.getDeletion(ctx, input.deletionId)),
  deleteIssue: orgProcedure.input(DeleteIssueInput).mutation(({ ctx, input }) => service.requestIssueDeletion(ctx, input)),
  eraseUserData: orgProcedure.input(EraseUserDataInput).mutation(({ ctx, input }) => service.requestUserDataErasure(ctx, input)),
  projectImpact: orgProcedure.input(ProjectIdInput).query(({ ctx, input }) => service.projectDeletionImpact(ctx, input.projectId)),
});
