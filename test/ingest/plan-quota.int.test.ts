import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { executeRows } from "../../src/server/db/execute";
import { ingestOutcomes, occurrences } from "../../src/server/db/schema/index";
import { PLUS_PRICE, startBillingServer, type BillingTestServer } from "../helpers/billing-server";
import { runSentryNode } from "../helpers/run-sentry-node";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { createOrganization, signUpVerified } from "../helpers/test-users";
import type { TestServer } from "../helpers/test-server";

/** A minimal error envelope, as an SDK sends it. */
async function sendEnvelope(server: TestServer, project: { number: number; apiKey: string }, n: number) {
  const eventId = crypto.randomUUID().replaceAll("-", "");
  const event = { event_id: eventId, level: "error", platform: "node", exception: { values: [{ type: "QuotaError", value: `event ${n}` }] } };
  const body = `${JSON.stringify({ event_id: eventId })}\n{"type":"event"}\n${JSON.stringify(event)}\n`;
  return fetch(`${server.url}/api/${project.number}/envelope/?sentry_key=${project.apiKey}`, { method: "POST", body });
}

async function newTenant(server: TestServer, name: string) {
  const owner = await signUpVerified(server, { name: `${name} Owner` });
  const org = await createOrganization(owner.session, name);
  const { data } = await owner.session.mutation("project.create", { name: `${name} app`, platform: "NODE_JS" });
  return { owner, org, project: data as { id: string; number: number; apiKey: string; dsn: string } };
}

const storedOf = async (server: TestServer, projectId: string) =>
  (await server.database.db.select({ id: occurrences.id }).from(occurrences).where(eq(occurrences.projectId, projectId))).length;

const outcomeCount = async (server: TestServer, projectId: string, outcome: string, reason: string) => {
  const rows = await server.database.db
    .select({ count: ingestOutcomes.count })
    .from(ingestOutcomes)
    .where(and(eq(ingestOutcomes.projectId, projectId), eq(ingestOutcomes.outcome, outcome), eq(ingestOutcomes.reason, reason)));
  return rows.reduce((sum, row) => sum + row.count, 0);
};

describe("the free plan's monthly event quota (hosted deployment)", () => {
  const env = { PLAN_FREE_MONTHLY_EVENTS: "50", PLAN_PLUS_MONTHLY_EVENTS: "0" };
  let database: TestDatabase;
  let billing: BillingTestServer;
  let tenant: Awaited<ReturnType<typeof newTenant>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    billing = await startBillingServer({ env, database });
    tenant = await newTenant(billing.server, "Quota Org");
  }, 60_000);
  afterAll(async () => {
    await billing.close();
    await database.destroy();
  });

  it("stores exactly 50 of 80 events and answers the other 30 with 429, the organization scope and usage_exceeded", async () => {
    const statuses: number[] = [];
    let limited: Response | undefined;
    // Ten at a time: concurrent requests of one organization share one lease.
    for (let round = 0; round < 8; round++) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => sendEnvelope(billing.server, tenant.project, round * 10 + i)));
      for (const answer of answers) {
        statuses.push(answer.status);
        if (answer.status === 429) limited = answer;
        await answer.text();
      }
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    expect(await storedOf(billing.server, tenant.project.id)).toBe(50);

    const now = new Date();
    const secondsToNextMonth = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
    const retryAfter = Number(limited!.headers.get("retry-after"));
    expect(Math.abs(retryAfter - secondsToNextMonth)).toBeLessThan(60);
    expect(limited!.headers.get("x-sentry-rate-limits")).toBe(`${retryAfter}:error;default;transaction;attachment;session:organization:usage_exceeded`);
    // Counted as outcomes, which the billing page shows as "over quota".
    await vi.waitFor(async () => expect(await outcomeCount(billing.server, tenant.project.id, "rate_limited", "usage_exceeded")).toBe(30), { timeout: 5000 });
    expect(await outcomeCount(billing.server, tenant.project.id, "accepted", "")).toBe(50);
  });

  it("mails the owners once at 80 % and once at 100 %", async () => {
    await vi.waitFor(() => {
      const usage = billing.server.mailer.outbox().filter((mail) => mail.to === tenant.owner.email.toLowerCase() && mail.kind === "usage");
      expect(usage.map((mail) => mail.subject).sort()).toEqual([
        "Quota Org has used 100 % of its monthly events",
        "Quota Org has used 80 % of its monthly events",
      ]);
      expect(usage.every((mail) => mail.actionUrl.endsWith("/settings/organization/billing"))).toBe(true);
    });
  });

  it("shows the month's usage per project on the billing usage call", async () => {
    const usage = await tenant.owner.session.request(`/api/v1/organizations/${tenant.org.id}/billing/usage`);
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({
      plan: "free",
      quota: 50,
      used: 50,
      projects: [{ projectId: tenant.project.id, accepted: 50, overQuota: 30, rateLimited: 0 }],
    });
  });

  it("makes a real @sentry/node SDK back off after the first 429", async () => {
    const refusedBefore = await outcomeCount(billing.server, tenant.project.id, "rate_limited", "usage_exceeded");
    await runSentryNode(tenant.project.dsn.replace("localhost", "127.0.0.1"), 5, "plain");
    await vi.waitFor(async () => {
      // One envelope refused; the SDK held the other four back itself and reported them as discarded.
      expect(await outcomeCount(billing.server, tenant.project.id, "rate_limited", "usage_exceeded")).toBe(refusedBefore + 1);
      expect(await outcomeCount(billing.server, tenant.project.id, "client_discard", "ratelimit_backoff")).toBe(4);
    });
    expect(await storedOf(billing.server, tenant.project.id)).toBe(50);
  });

  it("keeps the count across a restart", async () => {
    await billing.close();
    billing = await startBillingServer({ env, database });
    const [counter] = await executeRows<{ count: number }>(database.db, sql`select count from ingest_rate_counters where key = ${`quota:${tenant.org.id}`}`);
    expect(Number(counter.count)).toBe(50);
    const answer = await sendEnvelope(billing.server, tenant.project, 999);
    expect(answer.status).toBe(429);
    expect(await storedOf(billing.server, tenant.project.id)).toBe(50);
  });

  it("does not limit a plus organization by the free quota", async () => {
    const plus = await newTenant(billing.server, "Plus Org");
    await plus.owner.session.mutation("billing.checkout", { plan: "plus" });
    const customer = [...billing.stripe.customers.values()].find((entry) => entry.metadata.organizationId === plus.org.id)!;
    const subscription = billing.stripe.createSubscription({
      customer: customer.id,
      price: PLUS_PRICE,
      quantity: 1,
      metadata: { organizationId: plus.org.id },
    });
    expect((await billing.stripe.deliver(billing.stripe.event("customer.subscription.created", subscription))).status).toBe(200);
    const statuses: number[] = [];
    for (let round = 0; round < 6; round++) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => sendEnvelope(billing.server, plus.project, round * 10 + i)));
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(await storedOf(billing.server, plus.project.id)).toBe(60);
  });
});

describe("the quota counted in Redis (when the rate limits use it)", () => {
  it("still accepts exactly the quota", async () => {
    const billing = await startBillingServer({
      env: { PLAN_FREE_MONTHLY_EVENTS: "5", REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", INGEST_PROJECT_RATE_LIMIT: "1000" },
    });
    try {
      const tenant = await newTenant(billing.server, "Redis Org");
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => sendEnvelope(billing.server, tenant.project, i)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      expect(await storedOf(billing.server, tenant.project.id)).toBe(5);
    } finally {
      await billing.close();
    }
  }, 60_000);
});

describe("quotas on a self-hosted installation", () => {
  it("do not apply, whatever the plan settings say", async () => {
    const { startTestServer } = await import("../helpers/test-server");
    const server = await startTestServer({ env: { PLAN_FREE_MONTHLY_EVENTS: "2" } });
    try {
      const tenant = await newTenant(server, "Self Org");
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await sendEnvelope(server, tenant.project, i)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect(server.ingest.quota).toBeUndefined();
      const usage = await tenant.owner.session.request(`/api/v1/organizations/${tenant.org.id}/billing/usage`);
      expect(usage.status).toBe(404);
      expect(usage.body.error.message).toContain("self-hosted");
    } finally {
      await server.close();
    }
  }, 60_000);
});
