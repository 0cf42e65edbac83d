import { orgProcedure, router } from "../trpc/init";
import { CreateRepositoryInput, RepositoryIdInput } from "../../shared/repository.inputs";
import { createRepository, listRepositories, removeRepository } from "./repository.service";

/** The organization's repositories (settings → Repositories), which release commits name. */
export const repositoryRouter = router({
  list: orgProcedure.query(({ ctx }) => listRepositories(ctx)),
  create: orgProcedure.input(CreateRepositoryInput).mutation(({ ctx, input }) => createRepository(ctx, input)),
  delete: orgProcedure.input(RepositoryIdInput).mutation(({ ctx, input }) => removeRepository(ctx, input.repositoryId)),
});
