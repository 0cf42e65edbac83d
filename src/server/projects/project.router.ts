import { CreateProjectInput, CreateProjectKeyInput, ProjectIdInput, ProjectKeyInput, RenameProjectInput } from "../../shared/project.inputs";
import { orgProcedure, router } from "../trpc/init";
import { requestProjectDeletion } from "../deletions/deletion.service";
import { projectOverview } from "./project-overview.service";
import * as service from "./project.service";

export const projectRouter = router({
  list: orgProcedure.query(({ ctx }) => service.listProjects(ctx)),
  get: orgProcedure.input(ProjectIdInput).query(({ ctx, input }) => service.getProject(ctx, input.projectId)),
  create: orgProcedure.input(CreateProjectInput).mutation(({ ctx, input }) => service.createProject(ctx, input)),
  rename: orgProcedure.input(RenameProjectInput).mutation(({ ctx, input }) => service.renameProject(ctx, input)),
  // Through the deletion job: the project is gone for every reader at once, its rows in batches after.
  delete: orgProcedure.input(ProjectIdInput).mutation(({ ctx, input }) => requestProjectDeletion(ctx, input.projectId)),
  createKey: orgProcedure.input(CreateProjectKeyInput).mutation(({ ctx, input }) => service.createProjectKey(ctx, input)),
  rotateKey: orgProcedure.input(ProjectKeyInput).mutation(({ ctx, input }) => service.rotateProjectKey(ctx, input.projectId, input.keyId)),
  setPrimaryKey: orgProcedure.input(ProjectKeyInput).mutation(({ ctx, input }) => service.setPrimaryProjectKey(ctx, input.projectId, input.keyId)),
  revokeKey: orgProcedure.input(ProjectKeyInput).mutation(({ ctx, input }) => service.revokeProjectKey(ctx, input.projectId, input.keyId)),
  overview: orgProcedure.query(({ ctx }) => projectOverview(ctx)),
});
