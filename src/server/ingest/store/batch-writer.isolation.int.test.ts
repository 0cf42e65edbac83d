/**
 * Battery: cross-tenant shared-batch failure. Many tenants' events commit in one statement; an
 * event the database refuses (here a year-0 timestamp that slipped past normalising, a valid JSON
 * value PostgreSQL's timestamptz rejects), an event of a project deleted since its key was cached,
 * or a tag count row the database refuses must cost the other tenants nothing — and an outage must
 * still answer the whole batch 503, without splitting.
 */
import { count, eq, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events as analyticsEvents, ingestOutcomes, issueTagCounts, occurrences, projects } from "../../db/schema/index";
import { recordAnalyticsEvent } from "../../events/analytics-event.service";
import { computeGrouping } from "../../grouping/fingerprint.v1";
import { createLogger } from "../../logger";
import { IngestError } from "../http/ingest-error";
import { StorageUnavailableError } from "../http/storage-unavailable";
import { normalizeSentryEvent } from "../normalize/event.normalizer";
import type { StatementRunner } from "./batch-commit";
import { BatchWriter } from "./batch-writer";
import type { PendingOccurrence } from "./pending-occurrence";
import { createTestDatabase, type TestDatabase } from "../../../../test/helpers/test-database";
import { seedProject } from "../../../../test/helpers/seed";

type Project = Awaited<ReturnType<typeof seedProject>>;

describe("BatchWriter isolating what the database refuses", () => {
  let database: TestDatabase;
  const logger = createLogger("silent");
  const dialect = new PgDialect();
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  const eventFor = (project: Project, tags: Record<string, string> = {}, poisoned = false): PendingOccurrence => {
    const occurrence = normalizeSentryEvent({ event_id: crypto.randomUUID().replaceAll("-", ""), message: "shared batch", level: "error", tags });
    // Past the normaliser's clamp, as any value it does not know about would be.
    if (poisoned) occurrence.timestamp = new Date("0000-06-01T00:00:00Z");
    return { organizationId: project.organizationId, projectId: project.projectId, occurrence, grouping: computeGrouping(occurrence), receivedAt: new Date() };
  };
  /** The real database, counting the statements of each kind it is sent. */
  const counting = (fail?: (text: string) => Error | null) => {
    const statements = { events: 0, tags: 0 };
    const runner: StatementRunner = {
      executePrepared: (query) => {
        const { sql: text } = dialect.sqlToQuery(query);
        if (text.includes("insert into occurrences")) statements.events += 1;
        if (text.includes("insert into issue_tag_counts")) statements.tags += 1;
        const failure = fail?.(text);
        return failure ? Promise.reject(failure) : database.executePrepared(query);
      },
    };
    return { runner, statements };
  };
  const writerOn = (db: StatementRunner, tagFlushMs = 60_000) => new BatchWriter(db, logger, { maxBatch: 1000, maxQueue: 10_000, maxInFlight: 1, tagFlushMs });
  const storedCount = async (projectId: string) =>
    Number((await database.db.select({ n: count() }).from(occurrences).where(eq(occurrences.projectId, projectId)))[0].n);
  const statusOf = (result: PromiseSettledResult<void>) =>
    result.status === "fulfilled"
      ? 200
      : result.reason instanceof IngestError
        ? result.reason.status
        : result.reason instanceof StorageUnavailableError
          ? 503
          : 500;

  it("stores every other tenant's event and answers the one unstorable event 400, counted as invalid", async () => {
    const victim = await seedProject(database.db, "victim");
    const attacker = await seedProject(database.db, "attacker");
    const { runner, statements } = counting();
    const writer = writerOn(runner);
    // Written in one tick, so all of them ride in the same batch.
    const victimEvents = Array.from({ length: 40 }, () => writer.write(eventFor(victim)));
    const attackerEvents = [eventFor(attacker), eventFor(attacker, {}, true), eventFor(attacker)].map((event) => writer.write(event));
    const victimResults = await Promise.allSettled(victimEvents);
    const attackerResults = await Promise.allSettled(attackerEvents);
    await writer.close();

    expect(victimResults.map(statusOf)).toEqual(Array(40).fill(200));
    expect(attackerResults.map(statusOf)).toEqual([200, 400, 200]);
    expect(await storedCount(victim.projectId)).toBe(40);
    expect(await storedCount(attacker.projectId)).toBe(2);
    const outcomes = await database.db.select().from(ingestOutcomes).where(eq(ingestOutcomes.projectId, attacker.projectId));
    expect(outcomes.find((row) => row.outcome === "invalid")).toMatchObject({ reason: "unstorable", count: 1 });
    // One failed statement for the batch, then halves: a handful, not one per event.
    expect(statements.events).toBeGreaterThan(1);
    expect(statements.events).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(43)));
  });

  it("bounds the statements when a tenant sends many unstorable events (at most 2n − 1)", async () => {
    const victim = await seedProject(database.db, "victim-many");
    const attacker = await seedProject(database.db, "attacker-many");
    const { runner, statements } = counting();
    const writer = writerOn(runner);
    const events = Array.from({ length: 64 }, (_, i) => (i % 4 === 0 ? eventFor(attacker, {}, true) : eventFor(victim)));
    const results = await Promise.allSettled(events.map((event) => writer.write(event)));
    await writer.close();
    expect(results.filter((result) => statusOf(result) === 400)).toHaveLength(16);
    expect(await storedCount(victim.projectId)).toBe(48);
    expect(statements.events).toBeLessThanOrEqual(2 * 64 - 1);
    // Grouped by tenant before splitting: the victim's 48 events clear in a few parts.
    expect(statements.events).toBeLessThanOrEqual(2 * 16 + 8);
  });

  it("refuses events of a project deleted since its key was cached (401), in the same single statement", async () => {
    const victim = await seedProject(database.db, "victim-deleted");
    const deleted = await seedProject(database.db, "deleted-meanwhile");
    await database.db.delete(projects).where(eq(projects.id, deleted.projectId));
    const { runner, statements } = counting();
    const writer = writerOn(runner);
    const results = await Promise.allSettled([eventFor(victim), eventFor(deleted), eventFor(victim), eventFor(deleted)].map((event) => writer.write(event)));
    await writer.close();
    expect(results.map(statusOf)).toEqual([200, 401, 200, 401]);
    expect(await storedCount(victim.projectId)).toBe(2);
    expect(statements.events).toBe(1);
  });

  it("answers the deleted project's event 401 and the analytics row beside it 200 when both ride one batch", async () => {
    const live = await seedProject(database.db, "live-with-rows");
    const deleted = await seedProject(database.db, "deleted-with-rows");
    await database.db.delete(projects).where(eq(projects.id, deleted.projectId));
    const writer = writerOn(database);
    // The analytics row comes first, so a position among the events alone would name it, not the orphan.
    const row = recordAnalyticsEvent(writer, live, { name: "beside an orphan" }, new Date());
    const events = [eventFor(deleted), eventFor(live)].map((event) => writer.write(event));
    const results = await Promise.allSettled([row, ...events]);
    await writer.close();
    expect(results.map(statusOf)).toEqual([200, 401, 200]);
    const rows = await database.db.select({ n: count() }).from(analyticsEvents).where(eq(analyticsEvents.projectId, live.projectId));
    expect(Number(rows[0].n)).toBe(1);
  });

  it("answers a whole batch 503 on an outage and does not split it", async () => {
    const project = await seedProject(database.db, "outage");
    for (const failure of [
      new Error("connection terminated"),
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
    ]) {
      const { runner, statements } = counting((text) => (text.includes("insert into occurrences") ? failure : null));
      const writer = writerOn(runner);
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => writer.write(eventFor(project))));
      await writer.close();
      expect(results.map(statusOf)).toEqual(Array(10).fill(503));
      expect(statements.events).toBe(1);
    }
  });

  it("drops a tag count row the database refuses and writes every other tenant's counts, without retrying it forever", async () => {
    const victim = await seedProject(database.db, "tags-victim");
    const attacker = await seedProject(database.db, "tags-attacker");
    // A data error the sanitising cannot know about, made real by a constraint of this database.
    await database.db.execute(sql`alter table issue_tag_counts add constraint test_refuses_poison check (value <> 'poison')`);
    try {
      const { runner, statements } = counting();
      const writer = writerOn(runner, 100);
      await Promise.all([
        writer.write(eventFor(victim, { plan: "free" })),
        writer.write(eventFor(attacker, { plan: "poison" })),
        writer.write(eventFor(attacker, { plan: "gold" })),
        // A lone surrogate is stored as U+FFFD rather than failing the flush.
        writer.write(eventFor(victim, { plan: "half \ud800" })),
      ]);
      const plans = async (projectId: string) => {
        const rows = await database.db.select().from(issueTagCounts).where(eq(issueTagCounts.projectId, projectId));
        return Object.fromEntries(rows.filter((row) => row.key === "plan").map((row) => [row.value, row.count]));
      };
      await expect.poll(() => plans(victim.projectId), { timeout: 5000 }).toEqual({ free: 1, "half \ufffd": 1 });
      expect(await plans(attacker.projectId)).toEqual({ gold: 1 });
      const settled = statements.tags;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(statements.tags).toBe(settled);
      await writer.close();
    } finally {
      await database.db.execute(sql`alter table issue_tag_counts drop constraint test_refuses_poison`);
    }
  });
});
