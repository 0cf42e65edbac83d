import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestOutcomes, releaseHealthHourly } from "../../src/server/db/schema/index";
import { startBillingServer, type BillingTestServer } from "../helpers/billing-server";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { createOrganization, signUpVerified } from "../helpers/test-users";

/** Sessions are not events (docs/billing.md): they take nothing from the monthly quota and still arrive once it is used up. */
describe("release health and the monthly event quota (hosted deployment)", () => {
  let database: TestDatabase;
  let billing: BillingTestServer;
  let project: { id: string; number: number; apiKey: string };

  beforeAll(async () => {
    database = await createTestDatabase();
    billing = await startBillingServer({ env: { PLAN_FREE_MONTHLY_EVENTS: "2", PLAN_PLUS_MONTHLY_EVENTS: "0" }, database });
    const { session } = await signUpVerified(billing.server);
    await createOrganization(session, "Sessions Quota");
    project = (await session.mutation("project.create", { name: "app", platform: "NODE_JS" })).data;
  }, 60_000);
  afterAll(async () => {
    await billing?.close();
    await database?.destroy();
  });

  const post = (body: string) => fetch(`${billing.server.url}/api/${project.number}/envelope/?sentry_key=${project.apiKey}`, { method: "POST", body });
  const event = () => {
    const eventId = crypto.randomUUID().replaceAll("-", "");
    return `${JSON.stringify({ event_id: eventId })}\n{"type":"event"}\n${JSON.stringify({ event_id: eventId, level: "error", exception: { values: [{ type: "QuotaError", value: "x" }] } })}\n`;
  };
  const sessions = (n: number) =>
    `{}\n{"type":"sessions"}\n${JSON.stringify({ aggregates: [{ started: new Date().toISOString(), exited: n }], attrs: { release: "app@1", environment: "production" } })}\n`;

  it("counts sessions without taking from the quota, before and after it is used up", async () => {
    expect((await post(sessions(5))).status).toBe(200);
    expect((await post(event())).status).toBe(200);
    expect((await post(event())).status).toBe(200);
    // The quota is used up by the two events alone: sessions took none of it.
    expect((await post(event())).status).toBe(429);
    expect((await post(sessions(4))).status).toBe(200);

    const rows = await database.db.select().from(releaseHealthHourly).where(eq(releaseHealthHourly.projectId, project.id));
    expect(rows.reduce((sum, row) => sum + row.sessions, 0)).toBe(9);
    const accepted = await database.db
      .select({ count: ingestOutcomes.count })
      .from(ingestOutcomes)
      .where(and(eq(ingestOutcomes.projectId, project.id), eq(ingestOutcomes.outcome, "accepted")));
    expect(accepted.reduce((sum, row) => sum + row.count, 0)).toBe(2);
  });
});
