import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeRows } from "../../src/server/db/execute";
import { computeGrouping } from "../../src/server/grouping/fingerprint.v1";
import { normalizeSentryEvent } from "../../src/server/ingest/normalize/event.normalizer";
import { BatchWriter } from "../../src/server/ingest/store/batch-writer";
import { createLogger } from "../../src/server/logger";
import { ensureCurrentPartitions } from "../../src/server/retention/current-partitions";
import { listPartitions } from "../../src/server/retention/week-partitions";
import { maintenanceJobHandlers } from "../../src/server/retention/maintenance-jobs";
import { PARTITIONED_TABLES } from "../../src/server/retention/partitioned-tables";
import { weekStartOf } from "../../src/server/retention/utc-days";
import { seedProject } from "../helpers/seed";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";

const queuedMaintenance = (server: TestServer) =>
  executeRows<{ run_at: string }>(server.database.db, sql`select run_at::text from jobs where name = 'maintenance.run' and state = 'queued'`);

describe("the maintenance job", () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await startTestServer({ env: { MAINTENANCE_INTERVAL_MINUTES: "60" } });
    // A second replica on the same database, started after the first.
    second = await startTestServer({ env: { MAINTENANCE_INTERVAL_MINUTES: "60" }, database: first.database });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it("is queued once for the whole cluster, a minute after a start", async () => {
    const queued = await queuedMaintenance(first);
    expect(queued).toHaveLength(1);
    expect(Date.parse(queued[0].run_at) - Date.now()).toBeGreaterThan(30_000);
  });

  it("runs, logs what it did, and queues the next run an interval later", async () => {
    const enqueued: { name: string; startAfter?: Date }[] = [];
    const logged: { message: string; fields?: Record<string, unknown> }[] = [];
    const logger = { ...createLogger("silent"), info: (message: string, fields?: Record<string, unknown>) => void logged.push({ message, fields }) };
    const handlers = maintenanceJobHandlers({
      db: first.database.db,
      env: { ...first.env, MAINTENANCE_INTERVAL_MINUTES: 60, RETENTION_DAYS: 90 },
      logger,
      jobs: {
        enqueue: async (name, _payload, options) => {
          enqueued.push({ name, startAfter: options?.startAfter });
          return null;
        },
      },
    });
    await handlers["maintenance.run"]({}, { last: false });
    expect(logged.map((line) => line.message)).toContain("maintenance run finished");
    expect(enqueued).toHaveLength(1);
    expect(enqueued[0].name).toBe("maintenance.run");
    expect(enqueued[0].startAfter!.getTime() - Date.now()).toBeGreaterThan(59 * 60_000);
    const [run] = await executeRows<{ n: number }>(first.database.db, sql`select count(*)::int as n from maintenance_runs where finished_at is not null`);
    expect(run.n).toBeGreaterThanOrEqual(1);
  });
});

describe("ingest on a day without its partition", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  it("creates the day and stores the batch, instead of refusing its events", async () => {
    const project = await seedProject(database.db, "missing-partition");
    const receivedAt = new Date("2031-03-04T05:06:07Z");
    const occurrences = PARTITIONED_TABLES[0];
    const week = weekStartOf("2031-03-04");
    expect((await listPartitions(database.db, occurrences)).map((p) => p.start)).not.toContain(week);
    const writer = new BatchWriter(database, createLogger("silent"), {
      maxBatch: 100,
      maxQueue: 100,
      maxInFlight: 1,
      tagFlushMs: 60_000,
      ensurePartitions: (days) => ensureCurrentPartitions(database.db, days),
    });
    const occurrence = normalizeSentryEvent({ event_id: crypto.randomUUID().replaceAll("-", ""), message: "from the future", level: "error" });
    await writer.write({ organizationId: project.organizationId, projectId: project.projectId, occurrence, grouping: computeGrouping(occurrence), receivedAt });
    await writer.close();
    expect((await listPartitions(database.db, occurrences)).map((p) => p.start)).toContain(week);
    const [stored] = await executeRows<{ partition: string }>(
      database.db,
      sql`select tableoid::regclass::text as partition from occurrences where project_id = ${project.projectId}::uuid`,
    );
    expect(stored.partition).toBe(`occurrences_p${week.replaceAll("-", "")}`);
  });
});
