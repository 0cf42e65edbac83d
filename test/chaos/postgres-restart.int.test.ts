import { count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../src/server/db/client";
import { occurrences } from "../../src/server/db/schema/index";
import { runIngestLoad } from "../helpers/ingest-load";
import { startPrivatePostgres, type PrivatePostgres } from "../helpers/private-postgres";
import { TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

// Battery C1: runs in the PostgreSQL pass of the suite, on a private cluster it may restart.
describe.runIf(TEST_DATABASE_URL)("PostgreSQL restarted under steady ingest (battery C1)", () => {
  let pg: PrivatePostgres;
  let server: TestServer;
  let project: { id: string; number: number; apiKey: string };

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    const database = createDatabase({ databaseUrl: pg.url, pgliteDataDir: "" });
    await database.migrate();
    const testDatabase: TestDatabase = { ...database, destroy: () => database.close() };
    server = await startTestServer({ database: testDatabase, env: { LOG_LEVEL: "error" } });
    const { session } = await signUpVerified(server);
    await createOrganization(session);
    project = (await session.mutation("project.create", { name: "chaos", platform: "NODE_JS" })).data;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await server?.database.close();
    pg?.destroy();
  });

  it.each(["fast", "immediate"] as const)(
    "loses no acknowledged event and never answers 500 across `pg_ctl restart -m %s`",
    async (mode) => {
      const url = () => `${server.url}/api/${project.number}/envelope/?sentry_key=${project.apiKey}`;
      const load = runIngestLoad(url, { connections: 8, durationMs: 9_000 });
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const restartedAt = Date.now();
      pg.restart(mode);
      const backAt = Date.now();
      const result = await load;

      const acked = [...result.acked];
      let stored = 0;
      for (let i = 0; i < acked.length; i += 1000) {
        const [row] = await server.database.db
          .select({ n: count() })
          .from(occurrences)
          .where(inArray(occurrences.eventId, acked.slice(i, i + 1000)));
        stored += Number(row.n);
      }
      const [{ total }] = await server.database.db.select({ total: count() }).from(occurrences).where(eq(occurrences.projectId, project.id));
      const recoveredAt = result.ackTimes.find((time) => time > backAt);
      console.log(
        `C1 ${mode}: acked=${acked.length} stored=${stored} lost=${acked.length - stored} statuses=${JSON.stringify(Object.fromEntries(result.statuses))} networkErrors=${result.networkErrors} downFor=${backAt - restartedAt}ms recoveredAfter=${recoveredAt ? recoveredAt - backAt : "never"}ms`,
      );

      expect(acked.length).toBeGreaterThan(100);
      expect(stored).toBe(acked.length);
      expect(result.statuses.get(500) ?? 0).toBe(0);
      expect([...result.statuses.keys()].every((status) => status === 200 || status === 503)).toBe(true);
      // Every stored row is a distinct event id (the unique index makes a duplicate impossible).
      expect(Number(total)).toBeGreaterThanOrEqual(stored);
      expect(recoveredAt).toBeDefined();
      expect(recoveredAt! - backAt).toBeLessThan(5_000);
    },
    60_000,
  );
});
