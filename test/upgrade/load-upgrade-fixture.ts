/**
 * The upgrade fixture (test/fixtures/upgrade/README.md): a plain-SQL dump of a database that
 * main at an older commit wrote from real SDK traffic, and the manifest of what it holds, so an
 * upgrade test can load it, start the newer code on it and check that every row is still there
 * exactly once.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";

export const FIXTURE_DIR = path.resolve(import.meta.dirname, "../fixtures/upgrade");
export const FIXTURE_DUMP = path.join(FIXTURE_DIR, "main-2026-11-28.sql.gz");
export const FIXTURE_MANIFEST = path.join(FIXTURE_DIR, "main-2026-11-28.manifest.json");

export interface FixtureOccurrence {
  id: string;
  projectId: string;
  eventId: string;
  /** ISO 8601 in UTC, microseconds kept (what a partition key on received_at would route by). */
  receivedAt: string;
}

export interface FixtureEvent {
  id: string;
  projectId: string;
  name: string;
  createdAt: string;
}

export interface FixtureManifest {
  /** The commit whose server wrote the database. */
  madeBy: string;
  /** Event ids the SDK's transport delivered twice; each is stored once. */
  duplicatedEventIds: string[];
  /** Rows of every table in the public schema. */
  tableCounts: Record<string, number>;
  occurrences: FixtureOccurrence[];
  events: FixtureEvent[];
}

/** The dump's SQL text. */
export function fixtureSql(): string {
  return gunzipSync(readFileSync(FIXTURE_DUMP)).toString("utf8");
}

export function fixtureManifest(): FixtureManifest {
  return JSON.parse(readFileSync(FIXTURE_MANIFEST, "utf8")) as FixtureManifest;
}

/** Every occurrence the dump holds, by id: after an upgrade each must be present exactly once. */
export async function expectedOccurrences(): Promise<FixtureOccurrence[]> {
  return fixtureManifest().occurrences;
}

/** Every native analytics event (`events` row) the dump holds. */
export async function expectedEvents(): Promise<FixtureEvent[]> {
  return fixtureManifest().events;
}

/**
 * Loads the dump into an empty database: a PostgreSQL URL (its own connection, closed after) or an
 * open PGlite. The dump sets session settings (an empty search_path among them), so a PGlite the
 * caller goes on using gets them reset; on PostgreSQL the connection that carried them is closed.
 * Each target runs the whole text as one simple query, so a failing statement loads nothing.
 */
export async function loadUpgradeFixture(target: string | PGlite): Promise<void> {
  const sql = fixtureSql();
  if (typeof target === "string") {
    const client = postgres(target, { max: 1, onnotice: () => {} });
    try {
      await assertEmpty((text) => client.unsafe(text));
      await client.unsafe(sql);
    } finally {
      await client.end({ timeout: 5 });
    }
    return;
  }
  await assertEmpty(async (text) => (await target.query<Record<string, unknown>>(text)).rows);
  await target.exec(sql);
  await target.exec("reset all");
}

/** Loading onto an existing schema would fail halfway on PostgreSQL's first CREATE TABLE, or mix rows. */
async function assertEmpty(query: (text: string) => Promise<readonly Record<string, unknown>[]>) {
  const [row] = await query(`select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')`);
  if (Number(row?.n) > 0) throw new Error(`the upgrade fixture loads into an empty database only (this one has ${row?.n} tables)`);
}
