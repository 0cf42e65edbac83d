import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq, inArray, sql } from "drizzle-orm";
import postgres from "postgres";
import { createDatabase, type Database } from "../src/server/db/client";
import { occurrences, releaseHealthHourly } from "../src/server/db/schema/index";

/** A fresh, migrated database for a server process a benchmark starts, and the environment that points the server at it. */
export interface ServerDatabase {
  database: Database;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/**
 * A throwaway database on the PostgreSQL server at `adminUrl`, or PGlite in a temporary directory
 * (on disk: the server process opens it after the benchmark has seeded and closed it).
 */
export async function openServerDatabase(kind: "postgres" | "pglite", adminUrl: string, prefix: string): Promise<ServerDatabase> {
  let opened: ServerDatabase;
  if (kind === "postgres") {
    const name = `${prefix}_${Date.now()}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = createDatabase({ databaseUrl: url.toString(), pgliteDataDir: "" });
    opened = {
      database,
      env: { DATABASE_URL: url.toString() },
      cleanup: async () => {
        await database.close();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), `${prefix.replaceAll("_", "-")}-pglite-`));
    opened = {
      database: createDatabase({ pgliteDataDir: dir }),
      env: { PGLITE_DATA_DIR: dir },
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  await opened.database.migrate();
  return opened;
}

/**
 * How many of `eventIds` the server stored, read after it exited: PGlite allows one process at a
 * time, so its directory is reopened here; PostgreSQL is read through the benchmark's own handle.
 */
export async function countStoredEvents(kind: "postgres" | "pglite", opened: ServerDatabase, eventIds: string[]): Promise<number> {
  const reader = kind === "pglite" ? createDatabase({ pgliteDataDir: opened.env.PGLITE_DATA_DIR }) : opened.database;
  let stored = 0;
  for (let i = 0; i < eventIds.length; i += 5000) {
    const [row] = await reader.db
      .select({ n: count() })
      .from(occurrences)
      .where(inArray(occurrences.eventId, eventIds.slice(i, i + 5000)));
    stored += Number(row.n);
  }
  if (kind === "pglite") await reader.close();
  return stored;
}

/** Release-health counts the server stored for a project (release_health_hourly summed), read as countStoredEvents reads. */
export async function sumStoredHealth(kind: "postgres" | "pglite", opened: ServerDatabase, projectId: string) {
  const reader = kind === "pglite" ? createDatabase({ pgliteDataDir: opened.env.PGLITE_DATA_DIR }) : opened.database;
  const [row] = await reader.db
    .select({
      sessions: sql<string>`coalesce(sum(${releaseHealthHourly.sessions}), 0)`,
      errored: sql<string>`coalesce(sum(${releaseHealthHourly.errored}), 0)`,
      crashed: sql<string>`coalesce(sum(${releaseHealthHourly.crashed}), 0)`,
      abnormal: sql<string>`coalesce(sum(${releaseHealthHourly.abnormal}), 0)`,
    })
    .from(releaseHealthHourly)
    .where(eq(releaseHealthHourly.projectId, projectId));
  if (kind === "pglite") await reader.close();
  return { sessions: Number(row.sessions), errored: Number(row.errored), crashed: Number(row.crashed), abnormal: Number(row.abnormal) };
}
