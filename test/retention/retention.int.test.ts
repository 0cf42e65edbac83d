import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeRows } from "../../src/server/db/execute";
import { ensurePartitionsFor, listPartitions } from "../../src/server/retention/week-partitions";
import { selectExceptionPage } from "../../src/server/exceptions/exception.queries";
import { runMaintenance } from "../../src/server/retention/maintenance-run";
import { PARTITIONED_TABLES } from "../../src/server/retention/partitioned-tables";
import { addDays, dayOf, daysBetween, weekStartOf } from "../../src/server/retention/utc-days";
import postgres from "postgres";
import { runSentryNode } from "../helpers/run-sentry-node";
import { seedProject } from "../helpers/seed";
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const DAY_MS = 86_400_000;
const SPREAD_DAYS = 20;

interface Project {
  id: string;
  organizationId: string;
  dsn: string;
}

async function newProject(server: TestServer, name: string): Promise<Project> {
  const { session } = await signUpVerified(server);
  await createOrganization(session);
  const { data } = await session.mutation("project.create", { name, platform: "NODE_JS" });
  const project = data as { id: string; dsn: string };
  const [row] = await executeRows<{ organization_id: string }>(server.database.db, sql`select organization_id from projects where id = ${project.id}::uuid`);
  return { id: project.id, dsn: project.dsn, organizationId: row.organization_id };
}

interface StoredRow {
  id: string;
  received_at: string;
}

/** A project's occurrences with when they were received, oldest first. */
function occurrencesOf(server: TestServer, projectId: string) {
  return executeRows<StoredRow>(
    server.database.db,
    sql`select id::text, received_at::text from occurrences where project_id = ${projectId}::uuid order by received_at, id`,
  );
}

/**
 * Real SDK events are all received now; retention needs history. Each event is moved back by
 * (its rank mod SPREAD_DAYS) whole days, received_on with it (the row moves to that day's
 * partition), so the project holds occurrences of the last SPREAD_DAYS days.
 */
async function spreadOverDays(server: TestServer, projectId: string) {
  const today = dayOf(new Date());
  await ensurePartitionsFor(server.database.db, PARTITIONED_TABLES[0], daysBetween(addDays(today, -SPREAD_DAYS), today));
  await server.database.db.execute(sql`
    update occurrences o set received_at = o.received_at - s.back * interval '1 day',
                             received_on = ((o.received_at - s.back * interval '1 day') at time zone 'UTC')::date
    from (select id, (row_number() over (order by event_id) - 1) % ${SPREAD_DAYS} as back from occurrences where project_id = ${projectId}::uuid) s
    where o.id = s.id and o.project_id = ${projectId}::uuid`);
}

/** A built query's text with its parameters written in, for EXPLAIN (they are ids and numbers here). */
function inlined({ sql: text, params }: { sql: string; params: unknown[] }) {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    return typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
  });
}

const explain = async (server: TestServer, query: string) =>
  (await executeRows<{ "QUERY PLAN": string }>(server.database.db, sql.raw(`explain (analyze, costs off, timing off, summary off) ${query}`)))
    .map((row) => row["QUERY PLAN"])
    .join("\n");

/**
 * The plan of `query` with sorting priced out: with twenty rows PostgreSQL may rightly sort them
 * all, which says nothing about a million. What must hold is that the partitions can be read in
 * the query's order (ordered Append); were the order not the partitions' own, it would still have
 * to merge or sort.
 */
async function explainOrdered(server: TestServer, query: string) {
  return server.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_sort = off`);
    await tx.execute(sql`set local enable_hashjoin = off`);
    return (await executeRows<{ "QUERY PLAN": string }>(tx, sql.raw(`explain (analyze, costs off, timing off, summary off) ${query}`)))
      .map((row) => row["QUERY PLAN"])
      .join("\n");
  });
}

describe("retention by week partitions, on real @sentry/node traffic", () => {
  let server: TestServer;
  let shortLived: Project;
  let longLived: Project;
  let before: { short: StoredRow[]; long: StoredRow[]; eventCounts: Record<string, number> };

  beforeAll(async () => {
    server = await startTestServer();
    shortLived = await newProject(server, "kept-30-days");
    longLived = await newProject(server, "kept-50-days");
    expect(await runSentryNode(shortLived.dsn, 20, "plain")).toHaveLength(20);
    expect(await runSentryNode(longLived.dsn, 20, "gzip")).toHaveLength(20);
    await spreadOverDays(server, shortLived.id);
    await spreadOverDays(server, longLived.id);
    const counts = await executeRows<{ id: string; event_count: number }>(server.database.db, sql`select id::text, event_count from issues`);
    before = {
      short: await occurrencesOf(server, shortLived.id),
      long: await occurrencesOf(server, longLived.id),
      eventCounts: Object.fromEntries(counts.map((row) => [row.id, Number(row.event_count)])),
    };
  }, 120_000);
  afterAll(() => server.close());

  const retained = () => [
    { organizationId: shortLived.organizationId, projectId: shortLived.id, retentionDays: 30 },
    { organizationId: longLived.organizationId, projectId: longLived.id, retentionDays: 50 },
  ];

  it("creates the weeks ahead and, with nothing past retention today, removes nothing", async () => {
    const summary = await runMaintenance(server.database.db, { projects: retained(), fallbackDays: 90 });
    const ahead = weekStartOf(addDays(dayOf(new Date()), 7));
    expect((await listPartitions(server.database.db, PARTITIONED_TABLES[0])).map((p) => p.start)).toContain(ahead);
    expect(summary?.retention.droppedPartitions).toEqual([]);
    expect(await occurrencesOf(server, shortLived.id)).toEqual(before.short);
    expect(await occurrencesOf(server, longLived.id)).toEqual(before.long);
  });

  it("says on a dry run what 40 days later would remove, and changes nothing", async () => {
    const asOf = new Date(Date.now() + 40 * DAY_MS);
    const partitions = await listPartitions(server.database.db, PARTITIONED_TABLES[0]);
    const summary = await runMaintenance(server.database.db, { asOf, dryRun: true, projects: retained(), fallbackDays: 90 });
    const longCutoff = asOf.getTime() - 50 * DAY_MS;
    const longGone = before.long.filter((row) => Date.parse(row.received_at) < longCutoff).length;
    const dropped = summary!.retention.droppedPartitions.filter((p) => p.table === "occurrences");
    // Whole weeks past the longest retention go as partitions, the rest past each project's cutoff at the edge.
    expect(dropped.reduce((sum, p) => sum + p.rows, 0) + summary!.retention.edgeRows.occurrences).toBe(before.short.length + longGone);
    expect(await listPartitions(server.database.db, PARTITIONED_TABLES[0])).toEqual(partitions);
    expect(await occurrencesOf(server, shortLived.id)).toEqual(before.short);
    expect(await occurrencesOf(server, longLived.id)).toEqual(before.long);
  });

  it("as of 40 days later keeps each project's retention exactly: whole weeks dropped, the edge deleted, counters kept", async () => {
    const asOf = new Date(Date.now() + 40 * DAY_MS);
    const summary = await runMaintenance(server.database.db, { asOf, projects: retained(), fallbackDays: 90 });
    expect(summary).not.toBeNull();
    const longCutoff = asOf.getTime() - 50 * DAY_MS;
    expect(before.long.some((row) => Date.parse(row.received_at) < longCutoff)).toBe(true);
    expect(before.long.some((row) => Date.parse(row.received_at) >= longCutoff)).toBe(true);
    // 30 days: everything (all of it is 40 days old or more as of then).
    expect(await occurrencesOf(server, shortLived.id)).toEqual([]);
    // 50 days: exactly the rows received after the cutoff.
    expect(await occurrencesOf(server, longLived.id)).toEqual(before.long.filter((row) => Date.parse(row.received_at) >= longCutoff));
    const droppedWeeks = summary!.retention.droppedPartitions.filter((p) => p.table === "occurrences").map((p) => p.week);
    expect(droppedWeeks.length).toBeGreaterThan(0);
    const left = (await listPartitions(server.database.db, PARTITIONED_TABLES[0])).map((p) => p.start);
    for (const week of droppedWeeks) expect(left).not.toContain(week);
    // Issue counters are history: unchanged.
    const counts = await executeRows<{ id: string; event_count: number }>(server.database.db, sql`select id::text, event_count from issues`);
    expect(Object.fromEntries(counts.map((row) => [row.id, Number(row.event_count)]))).toEqual(before.eventCounts);
    // Charts show what still exists: the short-lived project's rollups of days before its cutoff are gone.
    const [rollups] = await executeRows<{ n: number }>(
      server.database.db,
      sql`select count(*)::int as n from issue_daily_counts where project_id = ${shortLived.id}::uuid`,
    );
    expect(rollups.n).toBe(0);
    const [kept] = await executeRows<{ n: number }>(
      server.database.db,
      sql`select count(*)::int as n from issue_daily_counts where project_id = ${longLived.id}::uuid`,
    );
    expect(kept.n).toBeGreaterThan(0);
  });

  it("reads the exception list (a project's and an issue's) newest partition first and stops at the page's end", async () => {
    const [issue] = await executeRows<{ id: string }>(server.database.db, sql`select id::text from issues where project_id = ${longLived.id}::uuid limit 1`);
    for (const issueId of [undefined, issue.id]) {
      const page = selectExceptionPage(server.database.db, longLived.organizationId, longLived.id, { issueId, page: 1, size: 3, direction: "DESC" });
      const plan = await explainOrdered(server, inlined(page.toSQL()));
      // An ordered Append (not a Merge Append over every partition), whose older partitions never run.
      expect(plan).toMatch(/-> {2}Append/);
      expect(plan).not.toMatch(/Merge Append/);
      expect(plan).toMatch(/never executed/);
    }
  });

  it("prunes to the days asked for when a query bounds the day", async () => {
    const day = new Date().toISOString().slice(0, 10);
    const week = weekStartOf(day).replaceAll("-", "");
    const plan = await explain(server, `select count(*) from occurrences where received_on = '${day}' and project_id = '${longLived.id}'`);
    expect(plan).toContain(`occurrences_p${week}`);
    expect(plan).not.toMatch(new RegExp(`occurrences_p(?!${week})\\d{8}`));
  });

  it("lets one run at a time hold the lease", async () => {
    await server.database.db.execute(sql`insert into maintenance_runs (as_of, holder) values (now(), 'another replica')`);
    try {
      expect(await runMaintenance(server.database.db, { projects: retained(), fallbackDays: 90 })).toBeNull();
    } finally {
      await server.database.db.execute(sql`update maintenance_runs set finished_at = now() where holder = 'another replica'`);
    }
    expect(await runMaintenance(server.database.db, { projects: retained(), fallbackDays: 90 })).not.toBeNull();
  });
});

describe.runIf(TEST_DATABASE_URL)("retention beside a long transaction (PostgreSQL)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  it("leaves a day whose lock it cannot get within a second to the next run, and does the rest", async () => {
    const project = await seedProject(database.db, "retention-locked");
    const day = addDays(dayOf(new Date()), -40);
    await ensurePartitionsFor(database.db, PARTITIONED_TABLES[0], [day]);
    const retained = [{ organizationId: project.organizationId, projectId: project.projectId, retentionDays: 30 }];
    const reader = postgres(database.url!, { max: 1, onnotice: () => {} });
    try {
      // A reader inside a transaction holds its lock on occurrences until it ends.
      await reader`begin`;
      await reader`select count(*) from occurrences`;
      const blocked = await runMaintenance(database.db, { projects: retained, fallbackDays: 90 });
      expect(blocked?.retention.lockedPartitions).toEqual([`occurrences_p${weekStartOf(day).replaceAll("-", "")}`]);
      expect(blocked?.retention.droppedPartitions).toEqual([]);
      await reader`commit`;
    } finally {
      await reader.end();
    }
    const next = await runMaintenance(database.db, { projects: retained, fallbackDays: 90 });
    expect(next?.retention.droppedPartitions.map((p) => p.week)).toEqual([weekStartOf(day)]);
    expect(next?.retention.lockedPartitions).toEqual([]);
  });
});
