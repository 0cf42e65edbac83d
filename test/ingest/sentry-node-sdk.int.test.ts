import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestOutcomes, issues, occurrences } from "../../src/server/db/schema/index";
import { runSentryNode } from "../helpers/run-sentry-node";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

async function newProject(server: TestServer) {
  const { session } = await signUpVerified(server);
  await createOrganization(session);
  const { data } = await session.mutation("project.create", { name: "sdk", platform: "NODE_JS" });
  return data as { id: string; dsn: string; number: number };
}

const envelopeRequests = (server: TestServer, number: number) =>
  server.logs.filter((line) => line.msg === "request" && line.path === `/api/${number}/envelope/`);

describe("a real @sentry/node SDK", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it.each(["plain", "gzip"] as const)("sends %s envelopes that are all stored exactly once", async (mode) => {
    const project = await newProject(server);
    const ids = await runSentryNode(project.dsn, 5, mode);
    expect(ids).toHaveLength(5);
    const rows = await server.database.db.select().from(occurrences).where(eq(occurrences.projectId, project.id));
    expect(rows.map((row) => row.eventId).sort()).toEqual([...ids].sort());
    const [issue] = await server.database.db.select().from(issues).where(eq(issues.projectId, project.id));
    // The order ids differ, the code path does not: one issue.
    expect(issue.eventCount).toBe(5);
    expect(issue.userCount).toBe(3);
    expect(issue.environments).toEqual(["staging"]);
    expect(issue.title).toBe("TypeError: Cannot find order 1000");
    const statuses = envelopeRequests(server, project.number).map((line) => line.status);
    expect(statuses.length).toBeGreaterThanOrEqual(5);
    expect(statuses.every((status) => status === 200)).toBe(true);
  });
});

describe("a real @sentry/node SDK over quota", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { INGEST_PROJECT_RATE_LIMIT: "3", INGEST_RATE_LIMIT_WINDOW_SECONDS: "600" } });
  });
  afterAll(() => server.close());

  it("gets 429 with Retry-After and X-Sentry-Rate-Limits, then sends nothing until the window ends", async () => {
    const project = await newProject(server);
    await runSentryNode(project.dsn, 8, "plain");
    const rows = await server.database.db.select().from(occurrences).where(eq(occurrences.projectId, project.id));
    expect(rows).toHaveLength(3);
    const statuses = envelopeRequests(server, project.number).map((line) => line.status);
    // Three accepted, one refused; the SDK then holds back the other four events itself and
    // only reports them (client reports are never rate limited).
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 429]);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    const outcomes = await server.database.db.select().from(ingestOutcomes).where(eq(ingestOutcomes.projectId, project.id));
    expect(outcomes.find((row) => row.outcome === "rate_limited")?.count).toBe(1);
    expect(outcomes.find((row) => row.outcome === "accepted")?.count).toBe(3);
    const backoff = outcomes.filter((row) => row.outcome === "client_discard" && row.reason === "ratelimit_backoff" && row.category === "error");
    expect(backoff.reduce((sum, row) => sum + row.count, 0)).toBe(4);
  });
});
