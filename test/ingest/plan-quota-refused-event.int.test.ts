import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeRows } from "../../src/server/db/execute";
import { occurrences } from "../../src/server/db/schema/index";
import { startBillingServer, type BillingTestServer } from "../helpers/billing-server";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { createOrganization, signUpVerified } from "../helpers/test-users";
import type { TestServer } from "../helpers/test-server";

/** The message of the event the database refuses (see the check constraint below). */
const REFUSED = "refused by the database";

/** One envelope carrying several event items, as a batching SDK or a relay sends it. */
async function sendEnvelope(server: TestServer, project: { number: number; apiKey: string }, messages: string[]) {
  const items = messages.map((message) => {
    const eventId = crypto.randomUUID().replaceAll("-", "");
    const event = { event_id: eventId, level: "error", platform: "node", exception: { values: [{ type: "QuotaError", value: message }] } };
    return `{"type":"event"}\n${JSON.stringify(event)}\n`;
  });
  const answer = await fetch(`${server.url}/api/${project.number}/envelope/?sentry_key=${project.apiKey}`, { method: "POST", body: `{}\n${items.join("")}` });
  await answer.text();
  return answer.status;
}

const storedOf = async (server: TestServer, projectId: string) =>
  (await server.database.db.select({ id: occurrences.id }).from(occurrences).where(eq(occurrences.projectId, projectId))).length;

describe("an envelope with one event the database refuses, on a plan quota", () => {
  const env = { PLAN_FREE_MONTHLY_EVENTS: "10", PLAN_PLUS_MONTHLY_EVENTS: "0" };
  let database: TestDatabase;
  let billing: BillingTestServer;
  let project: { id: string; number: number; apiKey: string };
  let organizationId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    // Stands for any value normalising lets through and the database refuses (an over-long index
    // row was one): the batch statement fails with a data error and the writer isolates the event.
    await database.db.execute(sql.raw(`alter table occurrences add constraint refuse_marked_event check (message is distinct from '${REFUSED}')`));
    billing = await startBillingServer({ env, database });
    const owner = await signUpVerified(billing.server, { name: "Partial Owner" });
    organizationId = (await createOrganization(owner.session, "Partial Org")).id;
    project = (await owner.session.mutation("project.create", { name: "Partial app", platform: "NODE_JS" })).data as typeof project;
  }, 60_000);
  afterAll(async () => {
    await billing?.close();
    await database?.destroy();
  });

  it("counts the events it stored against the quota, so no more than the quota is ever stored", async () => {
    // Six good events and the refused one: six are stored, the envelope answers 400 for the seventh.
    expect(await sendEnvelope(billing.server, project, ["a1", "a2", "a3", REFUSED, "a4", "a5", "a6"])).toBe(400);
    expect(await storedOf(billing.server, project.id)).toBe(6);
    // Four left of ten: this envelope fills the quota, the next is refused.
    expect(await sendEnvelope(billing.server, project, ["b1", "b2", "b3", "b4"])).toBe(200);
    expect(await sendEnvelope(billing.server, project, ["c1"])).toBe(429);
    expect(await storedOf(billing.server, project.id)).toBe(10);
  });

  it("leaves the shared count equal to what was stored once the leases are given back", async () => {
    // Closing gives this process's unused lease back; the counter then holds what was used.
    await billing.close();
    billing = await startBillingServer({ env, database });
    const [counter] = await executeRows<{ count: number }>(database.db, sql`select count from ingest_rate_counters where key = ${`quota:${organizationId}`}`);
    expect(Number(counter.count)).toBe(await storedOf(billing.server, project.id));
    expect(await sendEnvelope(billing.server, project, ["d1"])).toBe(429);
  });
});
