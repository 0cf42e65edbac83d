import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestOutcomes, issues, occurrences } from "../../src/server/db/schema/index";
import { loadCaptures, loadExpected, replayOverHttp } from "../helpers/sdk-fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

describe.each(["node", "python"] as const)("real %s SDK captures over HTTP", (sdk) => {
  let server: TestServer;
  let project: { id: string; number: number; apiKey: string };
  const expected = loadExpected(sdk);
  const captures = loadCaptures(sdk);
  const statusByFile = new Map<string, number>();
  const eventIdByFile = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer();
    const { session } = await signUpVerified(server);
    await createOrganization(session);
    project = (await session.mutation("project.create", { name: `${sdk} app`, platform: sdk === "node" ? "NODE_JS" : "PYTHON" })).data;
    for (const capture of captures) {
      const response = await replayOverHttp(server.url, capture, { projectNumber: project.number, publicKey: project.apiKey });
      statusByFile.set(capture.file, response.status);
      const body = await response.json();
      if (body.id) eventIdByFile.set(capture.file, body.id);
    }
  });
  afterAll(() => server.close());

  it("answers 200 to every request", () => {
    expect(Object.fromEntries(statusByFile)).toEqual(Object.fromEntries(captures.map((c) => [c.file, 200])));
  });

  it("groups the events into exactly the expected issues", async () => {
    const rows = await server.database.db
      .select({ eventId: occurrences.eventId, issueId: occurrences.issueId })
      .from(occurrences)
      .where(eq(occurrences.projectId, project.id));
    const issueOfFile = new Map<string, string>();
    for (const [file, eventId] of eventIdByFile) {
      const row = rows.find((r) => r.eventId === eventId);
      if (expected.files[file]?.events.length) {
        expect(row, `${file} stored`).toBeDefined();
        issueOfFile.set(file, row!.issueId);
      }
    }
    const issueIds = expected.issues.map((group) => {
      const ids = new Set(group.files.map((file) => issueOfFile.get(file)));
      expect(ids.size, `${group.files.join(", ")} share one issue`).toBe(1);
      return [...ids][0];
    });
    expect(new Set(issueIds).size).toBe(expected.issues.length);
    const stored = await server.database.db.select().from(issues).where(eq(issues.projectId, project.id));
    expect(stored).toHaveLength(expected.issues.length);
  });

  it("keeps each issue's title, level, environment and counts", async () => {
    const stored = await server.database.db.select().from(issues).where(eq(issues.projectId, project.id));
    for (const group of expected.issues) {
      const events = group.files.map((file) => expected.files[file].events[0]);
      const title = events.map((e) => e.title).sort()[0];
      const issue = stored.find((row) => events.some((e) => e.title === row.title));
      expect(issue, `issue for ${title}`).toBeDefined();
      expect(issue!.level).toBe(events[0].level);
      expect(issue!.eventCount).toBe(group.files.length);
      expect(issue!.environments).toEqual([...new Set(events.map((e) => e.environment))]);
      expect(issue!.groupingVersion).toBe(2); // new issues are grouped by v2 (grouping/fingerprint.v2.ts)
      const expectedSeverity = { fatal: "CRITICAL", error: "HIGH", warning: "MEDIUM" }[events[0].level] ?? "LOW";
      expect(issue!.severity).toBe(expectedSeverity);
      expect(issue!.status).toBe("OPEN");
    }
  });

  it("stores a redelivered event once", async () => {
    const event = captures.find((c) => expected.files[c.file]?.events.length)!;
    const again = await replayOverHttp(server.url, event, { projectNumber: project.number, publicKey: project.apiKey });
    expect(again.status).toBe(200);
    const rows = await server.database.db
      .select()
      .from(occurrences)
      .where(and(eq(occurrences.projectId, project.id), eq(occurrences.eventId, eventIdByFile.get(event.file)!)));
    expect(rows).toHaveLength(1);
  });

  it("records client-report discards as outcomes", async () => {
    // Outcome counters ride along with the next batch after the 200 (they are statistics, not events).
    const discards = async () => {
      const rows = await server.database.db
        .select()
        .from(ingestOutcomes)
        .where(and(eq(ingestOutcomes.projectId, project.id), eq(ingestOutcomes.outcome, "client_discard")));
      return rows.find((row) => row.reason === "before_send" && row.category === "error")?.count;
    };
    await expect.poll(discards).toBe(1);
  });
});
