import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createDatabase, type Database } from "../../src/server/db/client";

/** Where the suite runs: PGlite in memory by default, PostgreSQL when DATABASE_URL is set (CI runs both). */
export const TEST_DATABASE_URL = process.env.DATABASE_URL;

export interface TestDatabase extends Database {
  url?: string;
  /** Closes the connection and, on PostgreSQL, drops the throwaway database. */
  destroy(): Promise<void>;
}

/**
 * A fresh, migrated database per suite: an in-memory PGlite, or a new PostgreSQL database on the
 * DATABASE_URL server, so suites never see each other's rows.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) {
    const database = createDatabase({ pgliteDataDir: "memory://" });
    await database.migrate();
    return { ...database, destroy: () => database.close() };
  }
  const name = `faultline_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = createDatabase({ databaseUrl: url.toString(), pgliteDataDir: "" });
  await database.migrate();
  return {
    ...database,
    url: url.toString(),
    destroy: async () => {
      await database.close();
      const cleanup = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
