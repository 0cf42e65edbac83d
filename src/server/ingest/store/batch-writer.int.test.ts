import { eq } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueMinuteCounts, issueTagCounts } from "../../db/schema/index";
import { computeGrouping } from "../../grouping/fingerprint.v1";
import { createLogger } from "../../logger";
import type { StatementRunner } from "./batch-commit";
import { BatchWriter } from "./batch-writer";
import { normalizeSentryEvent } from "../normalize/event.normalizer";
import type { PendingOccurrence } from "./pending-occurrence";
import { createTestDatabase, type TestDatabase } from "../../../../test/helpers/test-database";
import { seedProject } from "../../../../test/helpers/seed";

/** Batches follow each other without a gap; tag counts ride beside them, summed, and all reach the database. */
describe("BatchWriter", () => {
  let database: TestDatabase;
  const logger = createLogger("silent");
  const dialect = new PgDialect();
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  const eventFor = (project: Awaited<ReturnType<typeof seedProject>>, plan: string): PendingOccurrence => {
    const occurrence = normalizeSentryEvent({ event_id: crypto.randomUUID().replaceAll("-", ""), message: "tagged", level: "error", tags: { plan } });
    return { organizationId: project.organizationId, projectId: project.projectId, occurrence, grouping: computeGrouping(occurrence), receivedAt: new Date() };
  };
  const planCounts = async (projectId: string) => {
    const rows = await database.db.select().from(issueTagCounts).where(eq(issueTagCounts.projectId, projectId));
    return Object.fromEntries(rows.filter((row) => row.key === "plan").map((row) => [row.value, row.count]));
  };
  const writerOn = (db: StatementRunner, tagFlushMs: number) => new BatchWriter(db, logger, { maxBatch: 1000, maxQueue: 1000, maxInFlight: 1, tagFlushMs });

  it("writes the summed counts once the interval has passed, with no further traffic to carry them", async () => {
    const project = await seedProject(database.db, "tags-timer");
    const writer = writerOn(database, 500);
    await Promise.all(["free", "free", "pro"].map((plan) => writer.write(eventFor(project, plan))));
    await writer.write(eventFor(project, "free"));
    expect(await planCounts(project.projectId)).toEqual({});
    await expect.poll(() => planCounts(project.projectId), { timeout: 3000 }).toEqual({ free: 3, pro: 1 });
    await writer.close();
  });

  it("writes what it holds on close (SIGTERM), however long the interval", async () => {
    const project = await seedProject(database.db, "tags-close");
    const writer = writerOn(database, 60_000);
    await Promise.all(["gold", "gold"].map((plan) => writer.write(eventFor(project, plan))));
    expect(await planCounts(project.projectId)).toEqual({});
    await writer.close();
    expect(await planCounts(project.projectId)).toEqual({ gold: 2 });
  });

  it("keeps the counts of a failed flush and writes them with the next one", async () => {
    const project = await seedProject(database.db, "tags-retry");
    let failTagFlushes = 1;
    // The real database, with the first tag-count statement failing as if the server had gone away.
    const flaky: StatementRunner = {
      executePrepared: (query) => {
        const { sql: text } = dialect.sqlToQuery(query);
        if (text.includes("insert into issue_tag_counts") && failTagFlushes-- > 0) return Promise.reject(new Error("connection terminated"));
        return database.executePrepared(query);
      },
    };
    const writer = writerOn(flaky, 100);
    await writer.write(eventFor(project, "retry"));
    await expect.poll(() => failTagFlushes, { timeout: 3000 }).toBe(0);
    await writer.write(eventFor(project, "retry"));
    await expect.poll(() => planCounts(project.projectId), { timeout: 3000 }).toEqual({ retry: 2 });
    await writer.close();
  });

  it("sums events per issue and minute beside the batches, then hands the project on for its frequency checks", async () => {
    const project = await seedProject(database.db, "minutes");
    const writer = writerOn(database, 300);
    const handed: string[][] = [];
    writer.onCommitted = (facts) => handed.push(facts.projects);
    // Summed over the rows: the events may straddle a minute boundary.
    const minuteCounts = async () =>
      (await database.db.select().from(issueMinuteCounts).where(eq(issueMinuteCounts.projectId, project.projectId))).reduce((sum, row) => sum + row.count, 0);
    await Promise.all(["a", "b", "c"].map((plan) => writer.write(eventFor(project, plan))));
    // Committed, but the counts wait for the flush; no frequency check is due before they are written.
    expect(await minuteCounts()).toBe(0);
    expect(handed.flat()).toEqual([]);
    await expect.poll(minuteCounts, { timeout: 3000 }).toBe(3);
    await expect.poll(() => handed.flat(), { timeout: 3000 }).toEqual([`${project.organizationId} ${project.projectId}`]);
    await writer.write(eventFor(project, "d"));
    await writer.close();
    expect(await minuteCounts()).toBe(4);
  });

  it("sends the next batch to the database before answering the last batch's requests", async () => {
    const project = await seedProject(database.db, "hand-on");
    const log: string[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let batches = 0;
    // The real database, with the first batch's answer held back until the second event is queued.
    const recording: StatementRunner = {
      executePrepared: async <T>(query: Parameters<StatementRunner["executePrepared"]>[0]) => {
        if (!dialect.sqlToQuery(query).sql.includes("insert into occurrences")) return database.executePrepared<T>(query);
        const batch = ++batches;
        log.push(`batch ${batch} sent`);
        const rows = await database.executePrepared<T>(query);
        if (batch === 1) await firstHeld;
        return rows;
      },
    };
    const writer = writerOn(recording, 60_000);
    const first = writer.write(eventFor(project, "first")).then(() => log.push("first answered"));
    await expect.poll(() => batches).toBe(1);
    const second = writer.write(eventFor(project, "second")).then(() => log.push("second answered"));
    releaseFirst();
    await Promise.all([first, second]);
    expect(log).toEqual(["batch 1 sent", "batch 2 sent", "first answered", "second answered"]);
    await writer.close();
    expect(await planCounts(project.projectId)).toEqual({ first: 1, second: 1 });
  });
});
