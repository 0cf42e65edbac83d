import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractIssues, documentedResponse, type OpenApiDocument } from "../../../test/helpers/openapi-contract";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createTriageProject, daysAgo, sendEvent, triageTenant, utcDay, type TriageProject } from "../../../test/helpers/triage-seed";
import type { OrganizationStorage } from "../../shared/export.views";

/** Issue 35: what an organization stores, per project, from what ingest wrote. */
describe("organization storage", () => {
  let server: TestServer;
  let a: Awaited<ReturnType<typeof triageTenant>>;
  let b: Awaited<ReturnType<typeof triageTenant>>;
  let second: TriageProject;
  const storagePath = (orgId: string) => `/api/v1/organizations/${orgId}/storage`;

  beforeAll(async () => {
    server = await startTestServer();
    a = await triageTenant(server, "Storage A");
    b = await triageTenant(server, "Storage B");
    second = await createTriageProject(a.session, "Storage second");
    await sendEvent(server, a.project, { type: "OldError", value: "old", fn: "old", timestamp: daysAgo(3) });
    await sendEvent(server, a.project, { type: "NewError", value: "new", fn: "fresh" });
    await sendEvent(server, a.project, { type: "NewError", value: "new", fn: "fresh", message: randomBytes(4_500).toString("base64") });
    await sendEvent(server, second, { type: "SecondError", value: "2", fn: "second" });
    await sendEvent(server, b.project, { type: "ForeignError", value: "b", fn: "foreign" });
  });
  afterAll(() => server.close());

  it("answers each project's occurrences and oldest kept day as ingested, bytes estimated, and the totals", async () => {
    const response = await a.session.request<OrganizationStorage>(storagePath(a.org.slug));
    expect(response.status, response.text).toBe(200);
    const served: OpenApiDocument = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    expect(contractIssues(documentedResponse(served, "get", "/organizations/{orgId}/storage", 200), response.body)).toEqual([]);
    const storage = response.body;
    const first = storage.projects.find((project) => project.projectId === a.project.id)!;
    const other = storage.projects.find((project) => project.projectId === second.id)!;
    expect(storage.projects).toHaveLength(2);
    expect(first).toMatchObject({ occurrences: 3, oldestDay: utcDay(daysAgo(3)) });
    expect(other).toMatchObject({ occurrences: 1, oldestDay: utcDay(new Date()) });
    // Each stored row is at least its document: the 6,000 characters of incompressible message weigh on the first.
    expect(other.bytes).toBeGreaterThan(200);
    expect(first.bytes).toBeGreaterThan(other.bytes * 3);
    expect(storage.totals).toEqual({ occurrences: 4, bytes: first.bytes + other.bytes, oldestDay: utcDay(daysAgo(3)) });
    expect(storage.bytesMethod).toBe("sampled-row-size");
    expect(response.text).not.toContain(b.project.id);
  });

  it("is the same over tRPC, in the caller's own organization", async () => {
    const rest = (await a.session.request<OrganizationStorage>(storagePath(a.org.id))).body;
    const trpc = await a.session.query("storage.summary");
    expect(trpc.error).toBeUndefined();
    expect(trpc.data).toEqual(rest);
  });

  it("answers another organization as not found", async () => {
    for (const ref of [b.org.id, b.org.slug]) {
      const response = await a.session.request(storagePath(ref));
      expect(response.status, ref).toBe(404);
    }
  });
});
