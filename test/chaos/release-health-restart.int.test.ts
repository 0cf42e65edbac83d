import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../src/server/db/client";
import { releaseHealthHourly } from "../../src/server/db/schema/index";
import { freePort, loadAcrossSigkill } from "../helpers/app-process";
import { startPrivatePostgres, type PrivatePostgres } from "../helpers/private-postgres";
import { seedProject } from "../helpers/seed";
import { runSessionLoad, SESSION_LOAD_RELEASE, type SessionLoadResult, type SessionTotals } from "../helpers/session-load";
import { TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-database";
import { startTestServer } from "../helpers/test-server";

type Db = TestDatabase["db"];

async function countedTotals(db: Db, projectId: string): Promise<SessionTotals> {
  const rows = await db.select().from(releaseHealthHourly).where(eq(releaseHealthHourly.projectId, projectId));
  expect(rows.every((row) => row.release === SESSION_LOAD_RELEASE)).toBe(true);
  return rows.reduce(
    (sum, row) => ({
      sessions: sum.sessions + row.sessions,
      crashed: sum.crashed + row.crashed,
      unhealthy: sum.unhealthy + row.errored + row.crashed + row.abnormal,
    }),
    { sessions: 0, crashed: 0, unhealthy: 0 },
  );
}

/**
 * Every acknowledged session update is counted, and nothing is counted twice: what is stored lies
 * between what was answered 2xx and what was sent (a request cut off by the restart after its batch
 * committed is counted without its answer — the same in-doubt window events have). Errored alone is
 * not bounded so: an unacknowledged crash may have moved an acknowledged errored session.
 */
function expectExact(label: string, result: SessionLoadResult, counted: SessionTotals) {
  console.log(
    `${label}: acked=${JSON.stringify(result.acked)} counted=${JSON.stringify(counted)} sent=${JSON.stringify(result.sent)} statuses=${JSON.stringify(Object.fromEntries(result.statuses))} networkErrors=${result.networkErrors}`,
  );
  expect(result.acked.sessions).toBeGreaterThan(100);
  expect(result.statuses.get(500) ?? 0).toBe(0);
  for (const key of ["sessions", "crashed", "unhealthy"] as const) {
    expect(counted[key], key).toBeGreaterThanOrEqual(result.acked[key]);
    expect(counted[key], key).toBeLessThanOrEqual(result.sent[key]);
  }
}

// The PostgreSQL pass of the suite, on a private cluster the test may restart.
describe.runIf(TEST_DATABASE_URL)("release health under restarts", () => {
  let pg: PrivatePostgres;
  let database: TestDatabase;

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    const opened = createDatabase({ databaseUrl: pg.url, pgliteDataDir: "" });
    await opened.migrate();
    database = { ...opened, url: pg.url, destroy: () => opened.close() };
  }, 120_000);
  afterAll(async () => {
    await database?.destroy();
    pg?.destroy();
  });

  it("counts every acknowledged session update once across the app process's SIGKILL and restart", async () => {
    const project = await seedProject(database.db, "sessions-kill");
    const port = await freePort();
    const result = await loadAcrossSigkill({ DATABASE_URL: pg.url }, port, (appUrl) =>
      runSessionLoad(() => `${appUrl()}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`, { connections: 8, durationMs: 6_000 }),
    );
    expectExact("sessions SIGKILL", result, await countedTotals(database.db, project.projectId));
  }, 120_000);

  it("counts every acknowledged session update once across `pg_ctl restart -m immediate`", async () => {
    const project = await seedProject(database.db, "sessions-pg");
    const server = await startTestServer({ database, env: { LOG_LEVEL: "error" } });
    try {
      const target = () => `${server.url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`;
      const load = runSessionLoad(target, { connections: 8, durationMs: 8_000 });
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      pg.restart("immediate");
      const result = await load;
      expect(result.statuses.get(503) ?? 0).toBeGreaterThan(0);
      expectExact("sessions PG restart", result, await countedTotals(database.db, project.projectId));
    } finally {
      await server.close();
    }
  }, 120_000);
});
