import { randomBytes } from "node:crypto";
import { openAsBlob } from "node:fs";
import postgres from "postgres";
import { createDatabase, type Database } from "../../src/server/db/client";
import type { DatabaseTemplate } from "../setup/database-template";
import { leasePglite } from "./reused-pglite";

/** Where the suite runs: PGlite in memory by default, PostgreSQL when DATABASE_URL is set (CI runs both). */
export const TEST_DATABASE_URL = process.env.DATABASE_URL;

export interface TestDatabase extends Database {
  url?: string;
  /** Closes the connection and, on PostgreSQL, drops the throwaway database. */
  destroy(): Promise<void>;
}

/**
 * A fresh, migrated database per suite: an in-memory PGlite, or a new PostgreSQL database on the
 * DATABASE_URL server, so suites never see each other's rows. Under vitest each starts as a copy
 * of the run's migrated template (test/setup/database-template.ts); elsewhere (a benchmark using
 * the test server) it is migrated here.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await runTemplate();
  if (!TEST_DATABASE_URL) {
    const pgliteTemplate = template?.kind === "pglite" ? await templateBlob(template.file) : undefined;
    const database = createDatabase({ pgliteDataDir: "memory://", pgliteClient: leasePglite(pgliteTemplate) });
    // A no-op on a copy of the template (every migration is recorded as applied), kept so a
    // template from an older migration set could never go unnoticed.
    await database.migrate();
    // Closing hands the emptied PGlite to the worker's next suite (reused-pglite.ts).
    return { ...database, destroy: () => database.close() };
  }
  const name = `faultline_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(template?.kind === "postgres" ? `create database ${name} template ${template.name}` : `create database ${name}`);
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

/** The template the run's global setup provided, if this runs under vitest in a project that has one. */
async function runTemplate(): Promise<DatabaseTemplate | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import("vitest");
  return inject("databaseTemplate");
}

/** The template tarball, read once per worker. */
let templateRead: { file: string; blob: Promise<Blob> } | undefined;
function templateBlob(file: string): Promise<Blob> {
  if (templateRead?.file !== file) templateRead = { file, blob: openAsBlob(file) };
  return templateRead.blob;
}
