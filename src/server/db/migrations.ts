import { readFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

export const MIGRATIONS_FOLDER = path.join(import.meta.dirname, "../../../drizzle");

/**
 * Any fixed number shared by every replica: the session-level advisory lock that lets one replica
 * at a time apply migrations ("faultmig" in ASCII, so it will not collide by accident).
 */
const MIGRATION_LOCK_KEY = 0x6661756c746d6967n;

/** A replica older than the database it opens: it must not run on a schema it does not know. */
export class NewerSchemaError extends Error {
  constructor(databaseLatest: number, buildLatest: { number: number; tag: string }) {
    super(
      `The database schema is newer than this Faultline (database has migration ${pad(databaseLatest)}, ` +
        `this build knows up to ${pad(buildLatest.number)} ${buildLatest.tag}): upgrade this replica or roll the database back.`,
    );
    this.name = "NewerSchemaError";
  }
}

function pad(number: number): string {
  return String(number).padStart(4, "0");
}

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

/** The last migration this build ships (drizzle/meta/_journal.json, what drizzle's migrator reads). */
export function latestKnownMigration(folder = MIGRATIONS_FOLDER): JournalEntry {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta/_journal.json"), "utf8")) as { entries: JournalEntry[] };
  const latest = journal.entries.at(-1);
  if (!latest) throw new Error("drizzle/meta/_journal.json lists no migration");
  return latest;
}

/**
 * drizzle's migrator records each applied migration in drizzle.__drizzle_migrations with its
 * journal timestamp, and applies whatever is later than the latest recorded one. A row later than
 * this build's last journal entry came from a newer build: without this check drizzle would skip
 * everything silently and this replica would run on tables it does not know.
 */
async function assertSchemaNotNewer(query: (text: string) => Promise<Record<string, unknown>[]>) {
  const latest = latestKnownMigration();
  const [table] = await query(`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (table?.present !== true) return;
  const [row] = await query(
    `select count(*)::int as applied, count(*) filter (where created_at > ${Number(latest.when)})::int as newer from drizzle.__drizzle_migrations`,
  );
  if (row && Number(row.newer) > 0) throw new NewerSchemaError(Number(row.applied) - 1, { number: latest.idx, tag: latest.tag });
}

/**
 * Replicas started together (a rollout, an autoscaler) on an empty database each ran every
 * migration at once, and all but one failed on `CREATE TABLE` (issue 38). A session-level advisory
 * lock on a connection of its own, outside the pool drizzle's migrator takes its transaction from,
 * lets one replica migrate while the others wait, then find everything applied. It is held across
 * the whole run and released on failure too; a replica that dies holding it releases it with its
 * connection.
 */
export async function migratePostgresOnce(url: string, client: postgres.Sql, afterMigrations: () => Promise<void>): Promise<void> {
  const lock = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
    await assertSchemaNotNewer((text) => client.unsafe(text));
    await migratePostgres(drizzlePostgres(client), { migrationsFolder: MIGRATIONS_FOLDER });
    await afterMigrations();
  } finally {
    // Ending the session releases the lock, whether or not the unlock was reached.
    await lock.end({ timeout: 5 });
  }
}

/** PGlite is one process's own (a data directory opens once), so no lock: only the version check. */
export async function migratePgliteChecked(client: PGlite): Promise<void> {
  await assertSchemaNotNewer(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
  await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
}
