import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueDailyCounts, issueHourlyCounts, issues, issueTagCounts } from "../../src/server/db/schema/index";
import { envelopeFor } from "../helpers/ingest-load";
import { seedProject } from "../helpers/seed";
import { startTestServer, type TestServer } from "../helpers/test-server";

describe("issue lifecycle at ingest", () => {
  let server: TestServer;
  let project: Awaited<ReturnType<typeof seedProject>>;
  const send = (n: number) =>
    fetch(`${server.url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`, {
      method: "POST",
      body: envelopeFor(crypto.randomUUID().replaceAll("-", ""), n),
    });
  const issueOf = async (n: number) => {
    await send(n);
    const rows = await server.database.db.select().from(issues).where(eq(issues.projectId, project.projectId));
    return rows.find((row) => row.culprit?.includes(`handler${n % 7}`))!;
  };

  beforeAll(async () => {
    server = await startTestServer();
    project = await seedProject(server.database.db, "lifecycle");
  });
  afterAll(() => server.close());

  it("reopens a RESOLVED issue as a regression on a new event", async () => {
    const issue = await issueOf(1);
    await server.database.db.update(issues).set({ status: "RESOLVED", resolvedAt: new Date() }).where(eq(issues.id, issue.id));
    const after = await issueOf(8); // same handler (8 % 7 === 1): same fingerprint
    expect(after.id).toBe(issue.id);
    expect(after.status).toBe("OPEN");
    expect(after.isRegression).toBe(true);
    expect(after.resolvedAt).toBeNull();
    expect(after.eventCount).toBe(2);
  });

  it("keeps an IGNORED issue ignored while its counts grow", async () => {
    const issue = await issueOf(2);
    await server.database.db.update(issues).set({ status: "IGNORED" }).where(eq(issues.id, issue.id));
    const after = await issueOf(9);
    expect(after.status).toBe("IGNORED");
    expect(after.isRegression).toBe(false);
    expect(after.eventCount).toBe(2);
  });

  it("creates one issue under concurrent first occurrences and counts every event in the rollups", async () => {
    const responses = await Promise.all(Array.from({ length: 40 }, () => send(3)));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const rows = (await server.database.db.select().from(issues).where(eq(issues.projectId, project.projectId))).filter((row) =>
      row.culprit?.includes("handler3"),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].eventCount).toBe(40);
    const hourly = await server.database.db.select().from(issueHourlyCounts).where(eq(issueHourlyCounts.issueId, rows[0].id));
    const daily = await server.database.db.select().from(issueDailyCounts).where(eq(issueDailyCounts.issueId, rows[0].id));
    expect(hourly.reduce((sum, row) => sum + row.count, 0)).toBe(40);
    expect(daily.reduce((sum, row) => sum + row.count, 0)).toBe(40);
    expect(hourly.every((row) => row.environment === "PRODUCTION")).toBe(true);
  });
});

describe("tags breakdown at ingest", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("counts every tag value of an issue's events, plus environment, release and level", async () => {
    const project = await seedProject(server.database.db, "tags");
    const url = `${server.url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`;
    for (const [n, browser] of [
      [1, "Chrome"],
      [2, "Chrome"],
      [3, "Firefox"],
    ] as const) {
      const id = crypto.randomUUID().replaceAll("-", "");
      const event = {
        event_id: id,
        level: "error",
        release: "web@2.0.0",
        environment: "staging",
        tags: { browser, attempt: String(n) },
        exception: { values: [{ type: "TagError", value: "x" }] },
      };
      const response = await fetch(url, { method: "POST", body: `{}\n{"type":"event"}\n${JSON.stringify(event)}\n` });
      expect(response.status).toBe(200);
    }
    // Tag counts are summed in memory and written about once a second (TagCountBuffer).
    let rows: (typeof issueTagCounts.$inferSelect)[] = [];
    const count = (key: string, value: string) => rows.find((row) => row.key === key && row.value === value)?.count;
    await expect
      .poll(async () => {
        rows = await server.database.db.select().from(issueTagCounts).where(eq(issueTagCounts.projectId, project.projectId));
        return count("level", "error");
      })
      .toBe(3);
    expect(count("browser", "Chrome")).toBe(2);
    expect(count("browser", "Firefox")).toBe(1);
    expect(count("environment", "staging")).toBe(3);
    expect(count("release", "web@2.0.0")).toBe(3);
    expect(count("level", "error")).toBe(3);
  });
});
