import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { repositories } from "../db/schema/index";

// Every query takes the organization id: a repository is one organization's.

export type RepositoryRow = typeof repositories.$inferSelect;

export function selectRepositories(db: Db, organizationId: string): Promise<RepositoryRow[]> {
  return db.select().from(repositories).where(eq(repositories.organizationId, organizationId)).orderBy(asc(repositories.name));
}

/** Registers a repository; null when the organization already has one of that name. */
export async function insertRepository(
  db: Db,
  organizationId: string,
  fields: { name: string; provider?: string | null; url?: string | null },
): Promise<RepositoryRow | null> {
  const [row] = await db
    .insert(repositories)
    .values({ organizationId, name: fields.name, provider: fields.provider ?? null, url: fields.url ?? null })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/** Removes a repository; the commits that named it keep their ids and lose the link (FK set null). */
export async function deleteRepository(db: Db, organizationId: string, repositoryId: string): Promise<boolean> {
  const deleted = await db
    .delete(repositories)
    .where(and(eq(repositories.organizationId, organizationId), eq(repositories.id, repositoryId)))
    .returning({ id: repositories.id });
  return deleted.length > 0;
}

export function selectRepositoriesByName(db: Db, organizationId: string, names: readonly string[]): Promise<RepositoryRow[]> {
  if (names.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(repositories)
    .where(and(eq(repositories.organizationId, organizationId), inArray(repositories.name, [...new Set(names)])));
}

/**
 * The ids of the named repositories, registering those the organization does not have yet: commits
 * sent by `set-commits --local` name the repository as the local git remote says, and Sentry
 * registers an unknown one rather than refusing the commits.
 */
export async function ensureRepositories(db: Db, organizationId: string, names: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(names)];
  if (unique.length > 0) {
    await db
      .insert(repositories)
      .values(unique.map((name) => ({ organizationId, name })))
      .onConflictDoNothing();
  }
  const rows = await selectRepositoriesByName(db, organizationId, unique);
  return new Map(rows.map((row) => [row.name, row.id]));
}
