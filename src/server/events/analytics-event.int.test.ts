import { eq } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, occurrences } from "../db/schema/index";
import { computeGrouping } from "../grouping/fingerprint.v1";
import { StorageUnavailableError } from "../ingest/http/storage-unavailable";
import { normalizeSentryEvent } from "../ingest/normalize/event.normalizer";
import type { StatementRunner } from "../ingest/store/batch-commit";
import { BatchWriter } from "../ingest/store/batch-writer";
import { createLogger } from "../logger";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import { ensureCurrentPartitions } from "../retention/current-partitions";
import { recordAnalyticsEvent } from "./analytics-event.service";

/** Analytics events go through the ingest batch writer: batched, committed before they resolve, under its failure policy. */
describe("recordAnalyticsEvent", () => {
  let database: TestDatabase;
  const logger = createLogger("silent");
  const dialect = new PgDialect();
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  /** The real database, counting the statements that insert analytics events, failing them while `fail` says so. */
  const watched = (fail = () => false) => {
    const seen = { inserts: 0 };
    const runner: StatementRunner = {
      executePrepared: (query) => {
        if (dialect.sqlToQuery(query).sql.includes("insert into events")) {
          seen.inserts++;
          if (fail()) return Promise.reject(new Error("connection terminated"));
        }
        return database.executePrepared(query);
      },
    };
    return { runner, seen };
  };
  const writerOn = (db: StatementRunner, maxQueue = 1000) => new BatchWriter(db, logger, { maxBatch: 1000, maxQueue, maxInFlight: 1, tagFlushMs: 60_000 });
  const storedEvents = (projectId: string) => database.db.select().from(events).where(eq(events.projectId, projectId));
  const occurrenceFor = (project: Awaited<ReturnType<typeof seedProject>>) => {
    const occurrence = normalizeSentryEvent({ event_id: crypto.randomUUID().replaceAll("-", ""), message: "beside analytics", level: "error" });
    return { organizationId: project.organizationId, projectId: project.projectId, occurrence, grouping: computeGrouping(occurrence), receivedAt: new Date() };
  };

  it("commits concurrent events in one statement, beside the batch's occurrences, before resolving", async () => {
    const project = await seedProject(database.db, "analytics-batch");
    const { runner, seen } = watched();
    const writer = writerOn(runner);
    const received = new Date("2026-01-02T03:04:05.678Z");
    // A day long past: its partition is made here (ingest makes a missing day itself, with one more statement).
    await ensureCurrentPartitions(database.db, ["2026-01-02"]);
    await Promise.all([
      ...[0, 1, 2, 3, 4].map((n) => recordAnalyticsEvent(writer, project, { name: "page_view", properties: { n, nested: { deep: [n] } } }, received)),
      writer.write(occurrenceFor(project)),
      recordAnalyticsEvent(writer, project, { name: "no_properties" }, received),
    ]);
    expect(seen.inserts).toBe(1);
    const rows = await storedEvents(project.projectId);
    expect(rows.map((row) => row.name).sort()).toEqual(["no_properties", "page_view", "page_view", "page_view", "page_view", "page_view"]);
    expect(rows.find((row) => row.name === "page_view" && (row.properties as { n: number }).n === 3)?.properties).toEqual({ n: 3, nested: { deep: [3] } });
    expect(rows.find((row) => row.name === "no_properties")).toMatchObject({ organizationId: project.organizationId, properties: {}, createdAt: received });
    expect(await database.db.select().from(occurrences).where(eq(occurrences.projectId, project.projectId))).toHaveLength(1);
    await writer.close();
  });

  it("stores U+0000 and lone surrogates as U+FFFD instead of failing the batch", async () => {
    const project = await seedProject(database.db, "analytics-unstorable");
    const writer = writerOn(database);
    await Promise.all([
      recordAnalyticsEvent(
        writer,
        project,
        { name: "nul\u0000", properties: { text: "a\u0000b", high: "x\ud800", low: "\udfffy", pair: "😀", literal: "\\u0000 \\ud800" } },
        new Date(),
      ),
      writer.write(occurrenceFor(project)),
    ]);
    const [row] = await storedEvents(project.projectId);
    expect(row.name).toBe("nul\ufffd");
    expect(row.properties).toEqual({ text: "a\ufffdb", high: "x\ufffd", low: "\ufffdy", pair: "😀", literal: "\\u0000 \\ud800" });
    await writer.close();
  });

  it("rejects with StorageUnavailableError (503) and writes nothing when the insert fails", async () => {
    const project = await seedProject(database.db, "analytics-failure");
    let failing = true;
    const { runner } = watched(() => failing);
    const writer = writerOn(runner);
    const error = await recordAnalyticsEvent(writer, project, { name: "lost" }, new Date()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect((error as StorageUnavailableError).retryAfterSeconds).toBe(5);
    expect(await storedEvents(project.projectId)).toEqual([]);
    failing = false;
    await recordAnalyticsEvent(writer, project, { name: "kept" }, new Date());
    expect((await storedEvents(project.projectId)).map((row) => row.name)).toEqual(["kept"]);
    await writer.close();
  });

  it("shares the writer's queue limit with occurrences and is refused once ingest shuts down", async () => {
    const project = await seedProject(database.db, "analytics-backpressure");
    const writer = writerOn(database, 1);
    const queued = writer.write(occurrenceFor(project));
    const full = await recordAnalyticsEvent(writer, project, { name: "over the limit" }, new Date()).catch((e: unknown) => e);
    expect(full).toBeInstanceOf(StorageUnavailableError);
    expect((full as StorageUnavailableError).retryAfterSeconds).toBe(1);
    await queued;
    await writer.close();
    await expect(recordAnalyticsEvent(writer, project, { name: "after close" }, new Date())).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(await storedEvents(project.projectId)).toEqual([]);
  });
});
