import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events } from "../../db/schema/index";
import { seedProject } from "../../../../test/helpers/seed";
import { createTestDatabase, type TestDatabase } from "../../../../test/helpers/test-database";
import { startTestServer, type TestServer } from "../../../../test/helpers/test-server";

/** The ingest contract of `POST /api/v1/events`: 201 only once committed; the database gone → 503 with Retry-After, never 500. */
describe("native analytics events endpoint", () => {
  let database: TestDatabase;
  let server: TestServer;
  let project: Awaited<ReturnType<typeof seedProject>>;
  const send = (body: unknown) =>
    fetch(`${server.url}/api/v1/events`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": project.publicKey },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startTestServer({ database, env: { LOG_LEVEL: "error" } });
    project = await seedProject(database.db, "native-events");
  });
  afterAll(async () => {
    await server.close();
    // The test closed the database already; PGlite refuses a second close.
    await database.destroy().catch(() => {});
  });

  it("answers 201 once the event is committed and 400 for a body that is not an event", async () => {
    const created = await send({ name: "signup", properties: { plan: "pro" } });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ result: "OK" });
    const rows = await database.db.select().from(events).where(eq(events.projectId, project.projectId));
    expect(rows.map((row) => [row.name, row.properties])).toEqual([["signup", { plan: "pro" }]]);
    // A lone surrogate (valid JSON, refused by PostgreSQL) is stored as U+FFFD, not answered with 503.
    expect((await send({ name: "odd", properties: { text: "x\ud800" } })).status).toBe(201);
    expect((await send({ properties: {} })).status).toBe(400);
    expect((await send({ name: "x", properties: [1] })).status).toBe(400);
  });

  it("answers 503 with Retry-After when the database is unavailable", async () => {
    await database.close();
    const refused = await send({ name: "lost" });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({ detail: "storage unavailable, retry later" });
  });
});
