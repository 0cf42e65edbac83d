import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startBillingServer, type BillingTestServer } from "../../../test/helpers/billing-server";
import { createOrganization, signUpVerified } from "../../../test/helpers/test-users";
import { events, ingestOutcomes, occurrences } from "../db/schema/index";

/** Analytics events draw on the plan's monthly quota with exceptions, and are refused past it as exceptions are. */
describe("analytics events against the monthly quota (hosted deployment)", () => {
  const QUOTA = 5;
  let billing: BillingTestServer;
  let tenant: { session: Awaited<ReturnType<typeof signUpVerified>>["session"]; org: { id: string }; project: { id: string; apiKey: string } };

  const post = (path: string, body: unknown) =>
    fetch(`${billing.server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": tenant.project.apiKey },
      body: JSON.stringify(body),
    });
  const sendAnalyticsEvent = (n: number) => post("/api/v1/events", { name: "page_view", properties: { n } });
  const sendException = (n: number) =>
    post("/api/v1/exceptions", { environment: "PRODUCTION", name: "QuotaError", message: `exception ${n}`, platform: "NODE_JS" });
  const rowsOf = async (table: typeof events | typeof occurrences) =>
    (await billing.server.database.db.select().from(table).where(eq(table.projectId, tenant.project.id))).length;
  const outcomes = (outcome: string, reason: string) =>
    billing.server.database.db
      .select({ category: ingestOutcomes.category, count: ingestOutcomes.count })
      .from(ingestOutcomes)
      .where(and(eq(ingestOutcomes.projectId, tenant.project.id), eq(ingestOutcomes.outcome, outcome), eq(ingestOutcomes.reason, reason)));
  const total = async (outcome: string, reason: string) => (await outcomes(outcome, reason)).reduce((sum, row) => sum + row.count, 0);

  beforeAll(async () => {
    billing = await startBillingServer({ env: { PLAN_FREE_MONTHLY_EVENTS: String(QUOTA), LOG_LEVEL: "error" } });
    const owner = await signUpVerified(billing.server, { name: "Analytics Owner" });
    const org = await createOrganization(owner.session, "Analytics Quota Org");
    const { data } = await owner.session.mutation("project.create", { name: "Analytics app", platform: "NODE_JS" });
    tenant = { session: owner.session, org, project: data };
  }, 120_000);
  afterAll(() => billing.close());

  it("shares the quota with exceptions and refuses the rest with ingest's quota answer", async () => {
    expect((await sendException(0)).status).toBe(201);
    expect((await sendException(1)).status).toBe(201);
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let n = 0; n < QUOTA; n++) {
      const answer = await sendAnalyticsEvent(n);
      statuses.push(answer.status);
      if (answer.status === 429) refused = answer;
      else await answer.text();
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect(await rowsOf(events)).toBe(3);

    // The exceptions endpoint's answer past the quota, for comparison: the same status, body and reason.
    const exceptionRefused = await sendException(2);
    expect(exceptionRefused.status).toBe(429);
    expect(await refused!.json()).toEqual(await exceptionRefused.json());
    const retryAfter = Number(refused!.headers.get("retry-after"));
    expect(Math.abs(retryAfter - Number(exceptionRefused.headers.get("retry-after")))).toBeLessThanOrEqual(1);
    expect(refused!.headers.get("x-sentry-rate-limits")).toBe(`${retryAfter}:default:organization:usage_exceeded`);
    expect(await rowsOf(occurrences)).toBe(2);
  });

  it("counts accepted analytics events in the month's usage and refused ones as over quota", async () => {
    expect(await outcomes("accepted", "")).toEqual(expect.arrayContaining([{ category: "event", count: 3 }]));
    await vi.waitFor(async () => expect(await total("rate_limited", "usage_exceeded")).toBe(3), { timeout: 5000 });
    const usage = await tenant.session.request(`/api/v1/organizations/${tenant.org.id}/billing/usage`);
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ quota: QUOTA, used: QUOTA, projects: [{ projectId: tenant.project.id, accepted: QUOTA, overQuota: 3 }] });
  });
});
