import { count, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { occurrences } from "../../src/server/db/schema/index";
import { freePort, loadAcrossSigkill, startAppProcess } from "../helpers/app-process";
import { runIngestLoad } from "../helpers/ingest-load";
import { seedProject } from "../helpers/seed";
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-database";

async function storedCount(database: TestDatabase, ids: string[]) {
  let stored = 0;
  for (let i = 0; i < ids.length; i += 1000) {
    const [row] = await database.db
      .select({ n: count() })
      .from(occurrences)
      .where(inArray(occurrences.eventId, ids.slice(i, i + 1000)));
    stored += Number(row.n);
  }
  return stored;
}

// Battery C2 and C3, against PostgreSQL (the PostgreSQL pass of the suite).
describe.runIf(TEST_DATABASE_URL)("the app process killed or stopped mid-load", () => {
  let database: TestDatabase;
  let project: Awaited<ReturnType<typeof seedProject>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    project = await seedProject(database.db, "kill");
  });
  afterAll(() => database?.destroy());

  it("C2: every event answered 2xx before SIGKILL is in the database after a restart", async () => {
    const port = await freePort();
    const result = await loadAcrossSigkill({ DATABASE_URL: database.url! }, port, (appUrl) =>
      runIngestLoad(() => `${appUrl()}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`, { connections: 8, durationMs: 6_000 }),
    );
    const acked = [...result.acked];
    const stored = await storedCount(database, acked);
    console.log(
      `C2 SIGKILL: acked=${acked.length} stored=${stored} lost=${acked.length - stored} statuses=${JSON.stringify(Object.fromEntries(result.statuses))} networkErrors=${result.networkErrors}`,
    );
    expect(acked.length).toBeGreaterThan(100);
    expect(stored).toBe(acked.length);
    expect(result.statuses.get(500) ?? 0).toBe(0);
  }, 60_000);

  it("C3: SIGTERM lets in-flight requests finish, flushes batches and exits 0", async () => {
    const app = await startAppProcess({ DATABASE_URL: database.url! });
    const target = () => `${app.url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`;
    const load = runIngestLoad(target, { connections: 8, durationMs: 3_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    app.child.kill("SIGTERM");
    const exit = await app.exited;
    const result = await load;
    const acked = [...result.acked];
    const stored = await storedCount(database, acked);
    console.log(
      `C3 SIGTERM: exit=${exit.code} acked=${acked.length} stored=${stored} statuses=${JSON.stringify(Object.fromEntries(result.statuses))} networkErrors=${result.networkErrors}`,
    );
    expect(exit.code).toBe(0);
    expect(stored).toBe(acked.length);
    expect(result.statuses.get(500) ?? 0).toBe(0);
    expect(app.output()).not.toContain("timed out");
  }, 60_000);
});
