/**
 * Issue 37 item 9: the plan quota stops at the quota across replicas. Two real app processes on
 * one PostgreSQL database take concurrent envelopes for one free organization; exactly the quota
 * is stored and every other event is answered 429 (before: each process handed out events from
 * its own memory, and the stored count passed the quota, 9 of 6).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { occurrences } from "../../src/server/db/schema/index";
import { startAppProcess, type AppProcess } from "../helpers/app-process";
import { HOSTED_ENV_WITHOUT_STRIPE } from "../helpers/billing-server";
import { seedProject } from "../helpers/seed";
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-database";

const QUOTA = 6;

function sendEnvelope(url: string, project: { number: number; publicKey: string }, n: number) {
  const eventId = crypto.randomUUID().replaceAll("-", "");
  const event = { event_id: eventId, level: "error", platform: "node", exception: { values: [{ type: "QuotaError", value: `event ${n}` }] } };
  const body = `${JSON.stringify({ event_id: eventId })}\n{"type":"event"}\n${JSON.stringify(event)}\n`;
  return fetch(`${url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`, { method: "POST", body });
}

describe.runIf(TEST_DATABASE_URL)("the plan quota across two app processes on one PostgreSQL", () => {
  let database: TestDatabase;
  const apps: AppProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = { ...HOSTED_ENV_WITHOUT_STRIPE, DATABASE_URL: database.url!, PLAN_FREE_MONTHLY_EVENTS: String(QUOTA) };
    apps.push(...(await Promise.all([startAppProcess(env), startAppProcess(env)])));
  }, 180_000);
  afterAll(async () => {
    for (const app of apps) {
      app.child.kill("SIGTERM");
      await app.exited;
    }
    await database?.destroy();
  });

  it("stores exactly the quota of concurrent events sent to both, and refuses the rest with 429", async () => {
    const project = await seedProject(database.db, "replicas");
    // Rounds of concurrent requests to both processes, so both reserve while the other does.
    const statuses: number[] = [];
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => sendEnvelope(apps[i % 2]!.url, project, round * 10 + i)));
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(QUOTA);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - QUOTA);
    const stored = await database.db.select({ id: occurrences.id }).from(occurrences).where(eq(occurrences.projectId, project.projectId));
    expect(stored).toHaveLength(QUOTA);
  }, 120_000);
});
