import { CreateProjectInput, CreateProjectKeyInput, ProjectIdInput, ProjectKeyInput, RenameProjectInput } from "../../shared/project.inputs";
import { orgProcedure, router } from "../trpc/init";
import { projectOverview } from "./project-overview.service";
import type { ProjectContext } from "./project.service";
import * as service from "./project.service";

const projectCtx = (ctx: {
  db: ProjectContext["db"];
  org: ProjectContext["org"];
  env: { API_URL: string };
  keyRevocations: ProjectContext["keyRevocations"];
}): ProjectContext => ({
  db: ctx.db,
  org: ctx.org,
  apiUrl: ctx.env.API_URL,
  keyRevocations: ctx.keyRevocations,
});

export const projectRouter = router({
  list: orgProcedure.query(({ ctx }) => service.listProjects(projectCtx(ctx))),
  get: orgProcedure.input(ProjectIdInput).query(({ ctx, input }) => service.getProject(projectCtx(ctx), input.projectId)),
  create: orgProcedure.input(CreateProjectInput).mutation(({ ctx, input }) => service.createProject(projectCtx(ctx), input)),
  rename: orgProcedure.input(RenameProjectInput).mutation(({ ctx, input }) => service.renameProject(projectCtx(ctx), input)),
  delete: orgProcedure.input(ProjectIdInput).mutation(({ ctx, input }) => service.deleteProject(projectCtx(ctx), input.projectId)),
  createKey: orgProcedure.input(CreateProjectKeyInput).mutation(({ ctx, input }) => service.createProjectKey(projectCtx(ctx), input)),
  rotateKey: orgProcedure.input(ProjectKeyInput).mutation(({ ctx, input }) => service.rotateProjectKey(projectCtx(ctx), input.projectId, input.keyId)),
  setPrimaryKey: orgProcedure.input(ProjectKeyInput).mutation(({ ctx, input }) => service.setPrimaryProjectKey(projectCtx(ctx), input.projectId, input.keyId)),
  revokeKey: orgProcedure.input(ProjectKeyInput).mutation(({ ctx, input }) => service.revokeProjectKey(projectCtx(ctx), input.projectId, input.keyId)),
  overview: orgProcedure.query(({ ctx }) => projectOverview(ctx)),
});

export { projectCtx };
