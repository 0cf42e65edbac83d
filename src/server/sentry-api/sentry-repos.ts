import { selectRepositories, type RepositoryRow } from "../releases/repositories.queries";
import { CreateRepositoryInput } from "../../shared/repository.inputs";
import { createRepository } from "../releases/repository.service";
import type { SentryContext } from "./sentry-auth";

/**
 * A repository as Sentry answers it. sentry-cli (`set-commits --auto`) matches `url` against the
 * local git remotes and `--commit owner/repo@sha` by `name`; without an integration Sentry's
 * provider is a plain one, so `provider.id` is what was registered (or `none`).
 */
function sentryRepositoryView(row: Pick<RepositoryRow, "id" | "name" | "provider" | "url" | "createdAt">) {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    provider: { id: row.provider ?? "none", name: row.provider ?? "None" },
    status: "active",
    dateCreated: row.createdAt.toISOString(),
    integrationId: null,
    externalSlug: null,
  };
}

/** `GET /organizations/{org}/repos/` (sentry-cli calls it first in every `set-commits`). */
export async function listRepos(ctx: SentryContext) {
  return (await selectRepositories(ctx.db, ctx.org.organizationId)).map(sentryRepositoryView);
}

/** `POST /organizations/{org}/repos/` with `{name, provider?, url?}`: the settings screen's form, over the API (201; 409 for a taken name). */
export async function createRepo(ctx: SentryContext, body: unknown) {
  const input = CreateRepositoryInput.parse(body);
  return { status: 201, body: sentryRepositoryView(await createRepository(ctx, input)) };
}
