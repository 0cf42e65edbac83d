import type { z } from "zod";
import type { ServiceContext } from "../context";
import { AppError, notFound } from "../errors";
import { requirePermission } from "../organizations/permissions";
import type { CreateRepositoryInput } from "../../shared/repository.inputs";
import { deleteRepository, insertRepository, selectRepositories, type RepositoryRow } from "./repositories.queries";

/** A repository as the settings screen shows it. */
export interface RepositoryView {
  id: string;
  name: string;
  provider: string | null;
  url: string | null;
  createdAt: Date;
}

const toView = (row: RepositoryRow): RepositoryView => ({ id: row.id, name: row.name, provider: row.provider, url: row.url, createdAt: row.createdAt });

/** Any member reads the repositories: they name where a release's commits come from, nothing secret. */
export async function listRepositories(ctx: ServiceContext): Promise<RepositoryView[]> {
  return (await selectRepositories(ctx.db, ctx.org.organizationId)).map(toView);
}

export async function createRepository(ctx: ServiceContext, input: z.output<typeof CreateRepositoryInput>): Promise<RepositoryView> {
  await requirePermission(ctx, "release:manage");
  const row = await insertRepository(ctx.db, ctx.org.organizationId, input);
  if (!row) throw new AppError("CONFLICT", `A repository named ${input.name} already exists`);
  return toView(row);
}

/** Removes a repository; release commits that named it stay, without their repository. */
export async function removeRepository(ctx: ServiceContext, repositoryId: string): Promise<{ deleted: true }> {
  await requirePermission(ctx, "release:manage");
  if (!(await deleteRepository(ctx.db, ctx.org.organizationId, repositoryId))) throw notFound("Repository");
  return { deleted: true };
}
