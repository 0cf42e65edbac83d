import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase, openPglite, type Database } from "../../src/server/db/client";
import { latestKnownMigration } from "../../src/server/db/migrations";
import { TEST_DATABASE_URL } from "../helpers/test-database";
import { weekStartOf } from "../../src/server/retention/utc-days";
import { expectedEvents, expectedOccurrences, fixtureManifest, loadUpgradeFixture } from "./load-upgrade-fixture";

type Rows = Record<string, unknown>[];
type Query = (text: string) => Promise<Rows>;

/**
 * What the upgrade must keep: every occurrence and event row once, by id, and every table's count.
 * Today's code opening the dump is the baseline the partitioned upgrade (issue 35) extends.
 */
async function expectFixtureContent(query: Query) {
  const occurrences = await query(`select id::text, project_id::text as "projectId", event_id as "eventId" from occurrences order by id`);
  const expected = (await expectedOccurrences()).map(({ id, projectId, eventId }) => ({ id, projectId, eventId }));
  expect(occurrences).toEqual(expected);
  const events = await query(`select id::text from events order by id`);
  expect(events.map((row) => row.id)).toEqual((await expectedEvents()).map((event) => event.id));

  const manifest = fixtureManifest();
  for (const eventId of manifest.duplicatedEventIds) {
    const [row] = await query(`select count(*)::int as n from occurrences where event_id = '${eventId}'`);
    expect(row.n, `event ${eventId}, delivered twice`).toBe(1);
  }
  const counts: Record<string, number> = {};
  for (const table of Object.keys(manifest.tableCounts)) {
    const [row] = await query(`select count(*)::int as n from "${table}"`);
    counts[table] = Number(row.n);
  }
  expect(counts).toEqual(manifest.tableCounts);
}

/**
 * Issue 35's upgrade: occurrences and events became week partitions, the old tables' rows moved
 * into them (each in its week's partition, the old tables gone) with progress in the log.
 */
async function expectPartitioned(query: Query, log: string[]) {
  const kinds = await query(
    `select relname, relkind::text from pg_class where relname in ('occurrences', 'events', 'occurrences_unpartitioned', 'events_unpartitioned') order by relname`,
  );
  expect(kinds).toEqual([
    { relname: "events", relkind: "p" },
    { relname: "occurrences", relkind: "p" },
  ]);
  const homes = await query(
    `select tableoid::regclass::text as partition, received_on::text as day, count(*)::int as n from occurrences group by 1, 2 order by 2`,
  );
  const byDay = new Map<string, number>();
  for (const row of fixtureManifest().occurrences) byDay.set(row.receivedAt.slice(0, 10), (byDay.get(row.receivedAt.slice(0, 10)) ?? 0) + 1);
  expect(homes).toEqual([...byDay].sort().map(([day, n]) => ({ partition: `occurrences_p${weekStartOf(day).replaceAll("-", "")}`, day, n })));
  const [inconsistent] = await query(`select count(*)::int as n from occurrences where received_on <> (received_at at time zone 'UTC')::date`);
  expect(inconsistent.n).toBe(0);
  const eventHomes = await query(
    `select count(*)::int as n from events where tableoid::regclass::text <> 'events_p' || to_char(date_trunc('week', created_at at time zone 'UTC'), 'YYYYMMDD')`,
  );
  expect(eventHomes[0].n).toBe(0);
  expect(log).toContain("moving occurrences into week partitions");
  expect(log).toContain("moved occurrences into week partitions");
  expect(log).toContain("moved events into week partitions");
}

/** The dump was made at an older commit: migrating applies the rest, and every one is recorded. */
async function expectAllMigrationsRecorded(query: Query) {
  const [row] = await query(`select count(*)::int as n from drizzle.__drizzle_migrations`);
  expect(Number(row.n)).toBe(latestKnownMigration().idx + 1);
}

describe("the upgrade fixture (a database main wrote from real SDK traffic)", () => {
  it("holds a few hundred occurrences over several days and analytics events", async () => {
    const manifest = fixtureManifest();
    expect(manifest.occurrences.length).toBeGreaterThanOrEqual(300);
    expect(manifest.events.length).toBeGreaterThan(0);
    expect(new Set(manifest.occurrences.map((row) => row.receivedAt.slice(0, 10))).size).toBeGreaterThan(3);
    expect(manifest.duplicatedEventIds.length).toBeGreaterThan(0);
  });

  it("loads into a fresh PGlite, which this version upgrades into week partitions with every row kept once", async () => {
    const client = openPglite("memory://");
    const database = createDatabase({ pgliteDataDir: "memory://", pgliteClient: client });
    const log: string[] = [];
    try {
      await loadUpgradeFixture(client);
      await database.migrate((message) => log.push(message));
      const query: Query = async (text) => (await client.query<Record<string, unknown>>(text)).rows;
      await expectAllMigrationsRecorded(query);
      await expectFixtureContent(query);
      await expectPartitioned(query, log);
    } finally {
      await database.close();
    }
  }, 120_000);

  it("refuses a database that already has tables", async () => {
    const client = openPglite("memory://");
    try {
      await client.exec("create table occurrences (id uuid)");
      await expect(loadUpgradeFixture(client)).rejects.toThrow("loads into an empty database only");
    } finally {
      await client.close();
    }
  });
});

describe.runIf(TEST_DATABASE_URL)("the upgrade fixture on PostgreSQL", () => {
  const name = `faultline_upgrade_${randomBytes(6).toString("hex")}`;
  let database: Database | undefined;
  const admin = () => postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });

  afterAll(async () => {
    await database?.close();
    const cleanup = admin();
    await cleanup.unsafe(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  });

  it("loads into a fresh database, which this version upgrades into week partitions with every row kept once", async () => {
    const create = admin();
    await create.unsafe(`create database ${name}`);
    await create.end();
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    await loadUpgradeFixture(url.toString());
    database = createDatabase({ databaseUrl: url.toString(), pgliteDataDir: "", maxConnections: 2 });
    const log: string[] = [];
    await database.migrate((message) => log.push(message));
    const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      const query: Query = (text) => client.unsafe(text);
      await expectAllMigrationsRecorded(query);
      await expectFixtureContent(query);
      await expectPartitioned(query, log);
    } finally {
      await client.end();
    }
  }, 120_000);
});
