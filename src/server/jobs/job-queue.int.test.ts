import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { createDatabase, type Database } from "../db/client";
import { executeRows } from "../db/execute";
import { createLogger } from "../logger";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { JobQueue, PermanentJobError } from "./job-queue";
import { JOBS } from "./job-registry";

const logger = createLogger("silent");
const fast = { pollMs: 20, baseBackoffMs: 10, maxBackoffMs: 50 };

/** The jobs these tests run: a registry of their own, as the app's is JOBS (job-registry.ts). */
const Counted = z.object({ n: z.number() });
const Empty = z.object({});
const TEST_JOBS = {
  once: Counted,
  single: z.object({ a: z.number() }),
  many: Counted,
  rolled: Counted,
  gather: z.object({ project: z.string(), facts: z.array(z.number()) }),
  later: Empty,
  flaky: Empty,
  "second-time": Empty,
  permanent: Empty,
  shared: Counted,
  lease: z.object({ x: z.number() }),
  strict: z.object({ id: z.uuid() }),
};
type TestJobs = typeof TEST_JOBS;
const idle = async () => {};
/** Handlers for every test job, doing nothing but those a test names. */
const handlers = (some: Partial<{ [Name in keyof TestJobs]: (payload: z.output<TestJobs[Name]>) => Promise<void> }>) => ({
  once: idle,
  single: idle,
  many: idle,
  rolled: idle,
  gather: idle,
  later: idle,
  flaky: idle,
  "second-time": idle,
  permanent: idle,
  shared: idle,
  lease: idle,
  strict: idle,
  ...some,
});

async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("JobQueue", () => {
  let database: TestDatabase;
  /** A second connection pool to the same database on PostgreSQL (another replica); the same PGlite otherwise. */
  let replica: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    replica = database.url ? createDatabase({ databaseUrl: database.url, pgliteDataDir: "" }) : database;
  });
  afterAll(async () => {
    if (replica !== database) await replica.close();
    await database.destroy();
  });

  const jobCount = async () => Number((await executeRows<{ n: number }>(database.db, sql`select count(*)::int as n from jobs`))[0].n);

  it("runs a job once and deletes it", async () => {
    const queue = new JobQueue(TEST_JOBS, database.db, logger, fast);
    const seen: unknown[] = [];
    queue.work(handlers({ once: async (payload) => void seen.push(payload) }));
    await queue.enqueue("once", { n: 1 });
    await until(() => seen.length === 1);
    await until(async () => (await jobCount()) === 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([{ n: 1 }]);
    await queue.close();
  });

  it("keeps one waiting job per singleton key", async () => {
    const queue = new JobQueue(TEST_JOBS, database.db, logger, fast);
    const later = new Date(Date.now() + 60_000);
    const first = await queue.enqueue("single", { a: 1 }, { singletonKey: "k", startAfter: later });
    const second = await queue.enqueue("single", { a: 2 }, { singletonKey: "k", startAfter: later });
    const other = await queue.enqueue("single", { a: 3 }, { singletonKey: "other", startAfter: later });
    expect(first).toBeTypeOf("string");
    expect(second).toBeNull();
    expect(other).toBeTypeOf("string");
    await executeRows(database.db, sql`delete from jobs where name = 'single'`);
    await queue.close();
  });

  it("enqueues many jobs in one statement inside a transaction, keeping a waiting key's job", async () => {
    const queue = new JobQueue(TEST_JOBS, database.db, logger, fast);
    const seen: unknown[] = [];
    await queue.enqueue("many", { n: 0 }, { singletonKey: "k0", startAfter: new Date(Date.now() + 60_000) });
    await database.db.transaction(async (tx) => {
      await queue.enqueueEachWith(tx, "many", [{ payload: { n: 1 }, singletonKey: "k0" }, { payload: { n: 2 }, singletonKey: "k2" }, { payload: { n: 3 } }]);
    });
    const waiting = await executeRows<{ payload: string; singleton_key: string | null }>(
      database.db,
      sql`select payload, singleton_key from jobs where name = 'many' order by payload`,
    );
    expect(waiting.map((row) => [JSON.parse(row.payload), row.singleton_key])).toEqual([
      [{ n: 0 }, "k0"],
      [{ n: 2 }, "k2"],
      [{ n: 3 }, null],
    ]);
    queue.work(handlers({ many: async (payload) => void seen.push(payload) }));
    await until(() => seen.length === 2);
    expect(seen).toEqual(expect.arrayContaining([{ n: 2 }, { n: 3 }]));
    await executeRows(database.db, sql`delete from jobs where name = 'many'`);
    await queue.close();
  });

  it("enqueues nothing from a rolled-back transaction", async () => {
    const queue = new JobQueue(TEST_JOBS, database.db, logger, fast);
    await expect(
      database.db.transaction(async (tx) => {
        await queue.enqueueEachWith(tx, "rolled", [{ payload: { n: 1 } }]);
        throw new Error("caller failed");
      }),
    ).rejects.toThrow("caller failed");
    expect(await executeRows(database.db, sql`select 1 from jobs where name = 'rolled'`)).toEqual([]);
    await queue.close();
  });

  it("appends to the waiting job of a key with appendTo, and runs it once with everything gathered", async () => {
    const queue = new JobQueue(TEST_JOBS, database.db, logger, { ...fast, pollMs: 60_000 });
    const runs: unknown[] = [];
    queue.work(handlers({ gather: async (payload) => void runs.push(payload) }));
    const due = new Date(Date.now() + 300);
    const first = await queue.enqueue("gather", { project: "p", facts: [1] }, { singletonKey: "p", appendTo: "facts", startAfter: due });
    const second = await queue.enqueue("gather", { project: "p", facts: [2, 3] }, { singletonKey: "p", appendTo: "facts", startAfter: due });
    await queue.enqueue("gather", { project: "q", facts: [9] }, { singletonKey: "q", appendTo: "facts", startAfter: due });
    expect(second).toBe(first);
    expect(runs).toEqual([]);
    // The poll is a minute away: the wake-up armed for the due time runs them.
    await until(() => runs.length === 2, 5_000);
    expect(runs).toEqual(
      expect.arrayContaining([
        { project: "p", facts: [1, 2, 3] },
        { project: "q", facts: [9] },
      ]),
    );
    // Once run, the next fact opens a new job.
    await queue.enqueue("gather", { project: "p", facts: [4] }, { singletonKey: "p", appendTo: "facts" });
    await until(() => runs.length === 3, 5_000);
    expect(runs[2]).toEqual({ project: "p", facts: [4] });
    await queue.close();
  });

  it("does not run a job before startAfter", async () => {
    const queue = new JobQueue(TEST_JOBS, database.db, logger, fast);
    let ran = 0;
    queue.work(handlers({ later: async () => void ran++ }));
    await queue.enqueue("later", {}, { startAfter: new Date(Date.now() + 400) });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ran).toBe(0);
    await until(() => ran === 1);
    await queue.close();
  });

  it("retries a failing job with backoff, then gives up after maxAttempts", async () => {
    const queue = new JobQueue(TEST_JOBS, database.db, logger, { ...fast, maxAttempts: 3 });
    const attempts: number[] = [];
    queue.work(
      handlers({
        flaky: async () => {
          attempts.push(Date.now());
          throw new Error("receiver down");
        },
      }),
    );
    await queue.enqueue("flaky", {});
    await until(() => attempts.length === 3);
    await until(async () => (await jobCount()) === 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(attempts).toHaveLength(3);
    // Backoff grows: 10 ms then 20 ms at least between attempts.
    expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(15);
    await queue.close();
  });

  it("lets one job outlast the queue's attempts when its enqueue asks for more", async () => {
    const queue = new JobQueue(TEST_JOBS, database.db, logger, { ...fast, maxAttempts: 2 });
    const attempts: number[] = [];
    queue.work(
      handlers({
        flaky: async () => {
          attempts.push(Date.now());
          throw new Error("receiver down");
        },
      }),
    );
    await queue.enqueue("flaky", {}, { maxAttempts: 4 });
    await until(() => attempts.length === 4);
    await until(async () => (await jobCount()) === 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(attempts).toHaveLength(4);
    await queue.close();
  });

  it("succeeds on a later attempt and gives a permanent error up at once", async () => {
    const queue = new JobQueue(TEST_JOBS, database.db, logger, fast);
    let calls = 0;
    let permanent = 0;
    queue.work(
      handlers({
        "second-time": async () => {
          calls++;
          if (calls === 1) throw new Error("first fails");
        },
        permanent: async () => {
          permanent++;
          throw new PermanentJobError("refused");
        },
      }),
    );
    await queue.enqueue("second-time", {});
    await queue.enqueue("permanent", {});
    await until(() => calls === 2 && permanent === 1);
    await until(async () => (await jobCount()) === 0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect([calls, permanent]).toEqual([2, 1]);
    await queue.close();
  });

  it("parses each stored payload with its name's schema, and gives up at once a payload the schema refuses", async () => {
    const lines: Record<string, unknown>[] = [];
    const queue = new JobQueue(
      TEST_JOBS,
      database.db,
      createLogger("warn", (line) => void lines.push(JSON.parse(line))),
      fast,
    );
    const seen: unknown[] = [];
    queue.work(handlers({ strict: async (payload) => void seen.push(payload) }));
    // Rows as an older version (or a hand-made insert) left them: one the schema takes (unknown keys dropped), one it refuses.
    const id = "00000000-0000-4000-8000-000000000001";
    await executeRows(
      database.db,
      sql`insert into jobs (name, payload) values ('strict', ${JSON.stringify({ id, extra: true })}), ('strict', ${JSON.stringify({ id: "not-a-uuid" })})`,
    );
    queue.wake();
    await until(async () => (await jobCount()) === 0);
    expect(seen).toEqual([{ id }]);
    const givenUp = lines.filter((line) => line.msg === "job given up");
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0]).toMatchObject({ job: "strict", attempts: 1 });
    await queue.close();
  });

  it("takes each job's payload type from its name, and its handlers one per name (checked by tsc, never run)", () => {
    const typeChecks = (queue: JobQueue<TestJobs>, app: JobQueue) => {
      // @ts-expect-error "once" carries { n: number }
      void queue.enqueue("once", { n: "1" });
      // @ts-expect-error no job of this name is registered
      void queue.enqueue("unknown", {});
      // @ts-expect-error appendTo names an array of the payload ("project" is a string)
      void queue.enqueue("gather", { project: "p", facts: [] }, { singletonKey: "p", appendTo: "project" });
      // @ts-expect-error every job needs its handler
      queue.work({ once: idle });
      // @ts-expect-error the app's delivery job carries a notification id
      void app.enqueue("alert.deliver", { ruleId: "r" });
      void app.enqueue("alert.evaluate", { organizationId: "o", projectId: "p", facts: [] }, { singletonKey: "p", appendTo: "facts" });
    };
    expectTypeOf(typeChecks).toBeFunction();
    expectTypeOf<Parameters<JobQueue["work"]>[0]>().toHaveProperty("alert.digest");
    expect(Object.keys(JOBS).sort()).toEqual([
      "alert.deliver",
      "alert.digest",
      "alert.evaluate",
      "alert.frequency",
      "deletion.run",
      "maintenance.run",
      "sourcemaps.assemble",
    ]);
  });

  it("two runners on one database never run a job twice", async () => {
    const a = new JobQueue(TEST_JOBS, database.db, logger, { ...fast, batchSize: 5 });
    const b = new JobQueue(TEST_JOBS, replica.db, logger, { ...fast, batchSize: 5 });
    const runs = new Map<number, string[]>();
    const handler =
      (runner: string) =>
      async ({ n }: { n: number }) => {
        runs.set(n, [...(runs.get(n) ?? []), runner]);
        await new Promise((resolve) => setTimeout(resolve, 2));
      };
    for (let n = 0; n < 200; n++) await a.enqueue("shared", { n }, { startAfter: new Date(Date.now() + 300) });
    a.work(handlers({ shared: handler("a") }));
    b.work(handlers({ shared: handler("b") }));
    await until(() => runs.size === 200, 60_000);
    await until(async () => (await jobCount()) === 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const twice = [...runs.values()].filter((runners) => runners.length !== 1);
    expect(twice).toEqual([]);
    const byRunner = [...runs.values()].flat();
    // Both replicas took part (each claims a few at a time).
    expect(byRunner.filter((r) => r === "a").length).toBeGreaterThan(0);
    expect(byRunner.filter((r) => r === "b").length).toBeGreaterThan(0);
    await Promise.all([a.close(), b.close()]);
  }, 90_000);

  it("a job whose runner died is run again once its lease expires, and the stale runner cannot complete it", async () => {
    const dead = new JobQueue(TEST_JOBS, database.db, logger, { ...fast, leaseMs: 300 });
    let deadStarted = false;
    let releaseDead: () => void = () => {};
    dead.work(
      handlers({
        lease: async () => {
          deadStarted = true;
          // The runner "dies": it never finishes while the lease runs out.
          await new Promise<void>((resolve) => (releaseDead = resolve));
        },
      }),
    );
    await dead.enqueue("lease", { x: 1 });
    await until(() => deadStarted);
    const alive = new JobQueue(TEST_JOBS, replica.db, logger, { ...fast, leaseMs: 300 });
    let aliveRuns = 0;
    let releaseAlive: () => void = () => {};
    alive.work(
      handlers({
        lease: async () => {
          aliveRuns++;
          await new Promise<void>((resolve) => (releaseAlive = resolve));
        },
      }),
    );
    await until(() => aliveRuns === 1);
    // The dead runner wakes up and "completes": its lease is gone, so the job stays with the new runner.
    releaseDead();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [row] = await executeRows<{ attempts: number; state: string }>(database.db, sql`select attempts, state from jobs where name = 'lease'`);
    expect(row).toMatchObject({ attempts: 2, state: "active" });
    releaseAlive();
    await until(async () => (await jobCount()) === 0);
    await Promise.all([dead.close(), alive.close()]);
  });
});
