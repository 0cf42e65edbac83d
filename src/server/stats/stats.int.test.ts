import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { daysAgo, issueByType, sendEvents, triageTenant, utcDay } from "../../../test/helpers/triage-seed";

describe("daily statistics", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;
  const from = utcDay(daysAgo(5));
  const to = utcDay(new Date());
  const daily = (input: Record<string, unknown>) => tenant.session.query("stats.daily", { projectId: tenant.project.id, from, to, ...input });
  const rest = (search: string) =>
    tenant.session.request(`/api/v1/organizations/${tenant.org.id}/projects/${tenant.project.id}/exceptions/statistics/daily${search}`);
  const sum = (rows: { count: number }[]) => rows.reduce((total, row) => total + row.count, 0);

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await triageTenant(server, "Stats");
    // Noon UTC of each day, so no event sits near a day boundary; the oldest stays well inside
    // the 30 days ingest accepts (an older timestamp is stored at the receive time).
    const noon = (days: number) => new Date(`${utcDay(daysAgo(days))}T12:00:00Z`);
    await sendEvents(server, tenant.project, [
      { type: "DailyError", value: "d", fn: "daily", timestamp: noon(4) },
      { type: "DailyError", value: "d", fn: "daily", timestamp: noon(4) },
      { type: "DailyError", value: "d", fn: "daily", timestamp: noon(2), environment: "staging" },
      { type: "OtherError", value: "o", fn: "other", timestamp: noon(2) },
      { type: "OtherError", value: "o", fn: "other", timestamp: noon(1), environment: "development" },
      { type: "OtherError", value: "o", fn: "other", timestamp: noon(20) },
    ]);
  });
  afterAll(() => server.close());

  it("answers every day from..to inclusive, zero-filled, matching the events sent", async () => {
    const { data, error } = await daily({});
    expect(error).toBeUndefined();
    expect(data.map((row: { date: string }) => row.date)).toEqual([5, 4, 3, 2, 1, 0].map((n) => utcDay(daysAgo(n))));
    expect(data.map((row: { count: number }) => row.count)).toEqual([0, 2, 0, 2, 1, 0]);
    expect(sum((await daily({ from: utcDay(daysAgo(40)) })).data)).toBe(6);
    expect((await daily({ from: to })).data).toEqual([{ date: to, count: 0 }]);
  });

  it("filters by environment buckets and by issue", async () => {
    expect((await daily({ environments: ["STAGING"] })).data.map((row: { count: number }) => row.count)).toEqual([0, 0, 0, 1, 0, 0]);
    expect(sum((await daily({ environments: ["PRODUCTION", "DEVELOPMENT"] })).data)).toBe(4);
    const issue = await issueByType(tenant.session, tenant.project.id, "DailyError");
    expect((await daily({ issueId: issue.id })).data.map((row: { count: number }) => row.count)).toEqual([0, 2, 0, 1, 0, 0]);
    expect((await daily({ issueId: issue.id, environments: ["DEVELOPMENT"] })).data.every((row: { count: number }) => row.count === 0)).toBe(true);
    expect((await daily({ issueId: crypto.randomUUID() })).error?.code).toBe("NOT_FOUND");
  });

  it("serves the spec's REST path with query params passed through", async () => {
    const all = await rest(`?from=${from}&to=${to}`);
    expect(all.status, all.text).toBe(200);
    expect(all.body).toHaveLength(6);
    expect(all.body[1]).toEqual({ date: utcDay(daysAgo(4)), count: 2 });
    const staging = await rest(`?from=${from}&to=${to}&environments=STAGING&issueId=`);
    expect(sum(staging.body)).toBe(1);
  });

  it("refuses bad ranges with a clear 400", async () => {
    const long = await rest("?from=2025-01-01&to=2026-01-02");
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe("The range spans 367 days; at most 366 days are allowed");
    expect((await rest("?from=2024-01-01&to=2024-12-31")).status).toBe(200);
    const reversed = await rest(`?from=${to}&to=${from}`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.message).toContain("from must not be after to");
    expect((await rest("?from=2026-02-30&to=2026-03-01")).body.error.message).toContain("not a calendar day");
    expect((await rest(`?to=${to}`)).status).toBe(400);
    expect((await daily({ from: "2025-01-01", to: "2026-06-01" })).error?.code).toBe("BAD_REQUEST");
  });
});
