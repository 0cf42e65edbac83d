import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { contractIssues, documentedResponse, type OpenApiDocument } from "../../../test/helpers/openapi-contract";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { issueByType, sendEvent, triageTenant } from "../../../test/helpers/triage-seed";
import type { IssueExport } from "../../shared/export.views";

/** Issue 35: an issue exported with its latest occurrences, as JSON and as Markdown, over REST. */
describe("issue export", () => {
  let server: TestServer;
  let a: Awaited<ReturnType<typeof triageTenant>>;
  let b: Awaited<ReturnType<typeof triageTenant>>;
  let issueId: string;
  let bIssueId: string;
  let served: OpenApiDocument;
  const SENT = 12;
  const exportPath = (tenant: typeof a, issue: string, query = "") =>
    `/api/v1/organizations/${tenant.org.id}/projects/${tenant.project.id}/issues/${issue}/export${query}`;

  beforeAll(async () => {
    server = await startTestServer();
    a = await triageTenant(server, "Export A");
    b = await triageTenant(server, "Export B");
    // Real envelopes through the ingest endpoint, one at a time: value-0 is the oldest, value-11 the newest.
    for (let i = 0; i < SENT; i++) {
      await sendEvent(server, a.project, {
        type: "ExportError",
        value: `value-${i}`,
        fn: "exportHandler",
        release: "shop@1.0.0",
        tags: { browser: "firefox" },
        user: { id: `user-${i}`, email: `u${i}@example.com` },
      });
    }
    await sendEvent(server, b.project, { type: "ForeignError", value: "b", fn: "foreign" });
    issueId = (await issueByType(a.session, a.project.id, "ExportError")).id;
    bIssueId = (await issueByType(b.session, b.project.id, "ForeignError")).id;
    // The tag breakdown is written about once a second after the events (ingest's tag-count buffer).
    await vi.waitFor(
      async () => {
        const issue = await a.session.query("issue.get", { projectId: a.project.id, issueId });
        expect(issue.data.tags.find((tag: { key: string }) => tag.key === "browser")?.totalCount).toBe(SENT);
      },
      { timeout: 10_000, interval: 100 },
    );
    served = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
  });
  afterAll(() => server.close());

  it("answers JSON with the newest `limit` occurrences, newest first, with their frames, as documented", async () => {
    const response = await a.session.request<IssueExport>(exportPath(a, issueId, "?format=json&limit=5"));
    expect(response.status, response.text).toBe(200);
    const path = "/organizations/{orgId}/projects/{projectId}/issues/{issueId}/export";
    expect(contractIssues(documentedResponse(served, "get", path, 200), response.body)).toEqual([]);
    const document = response.body;
    expect(document.issue).toMatchObject({ id: issueId, eventCount: SENT, status: "OPEN", firstRelease: "shop@1.0.0" });
    expect(document.limit).toBe(5);
    expect(document.occurrences.map((occurrence) => occurrence.exceptions[0].value)).toEqual(["value-11", "value-10", "value-9", "value-8", "value-7"]);
    const [newest] = document.occurrences;
    expect(newest.exceptions[0].type).toBe("ExportError");
    // Frames as stored (oldest call first, crashing frame last), with the in-app flag and context.
    expect(newest.exceptions[0].frames.map((frame) => frame.function)).toEqual(["main", "exportHandler"]);
    expect(newest.exceptions[0].frames[1]).toMatchObject({ filename: "/app/handlers.js", lineno: 42, inApp: true, contextLine: "  throw new Error(x);" });
    expect(newest.user).toMatchObject({ id: "user-11", email: "u11@example.com" });
    expect(newest.request).toMatchObject({ url: "https://shop.example/checkout", method: "POST" });
    expect(newest.tags).toContainEqual({ key: "browser", value: "firefox" });
    expect(newest.breadcrumbs).toEqual([expect.objectContaining({ category: "http", message: "GET /cart" })]);
    expect(document.url).toContain(`/dashboard/issues/${issueId}?projectId=${a.project.id}`);
    expect(response.headers.get("content-disposition")).toBeNull();
  });

  it("takes 10 occurrences unless asked, and answers a download as an attachment", async () => {
    const response = await a.session.request<IssueExport>(exportPath(a, issueId, "?download=1"));
    expect(response.status).toBe(200);
    expect(response.body.occurrences).toHaveLength(10);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename=issue-${issueId.slice(0, 8)}.json`);
  });

  it("answers Markdown with a heading, fenced stack traces newest call first, and a tag table", async () => {
    const response = await a.session.request(exportPath(a, issueId, "?format=markdown&limit=3&download=1"));
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename=issue-${issueId.slice(0, 8)}.md`);
    const markdown = response.text;
    expect(markdown.startsWith("# ExportError: value-")).toBe(true);
    expect(markdown).toContain("## Tags");
    expect(markdown).toMatch(/\| browser \| firefox \| 12 \| 12 \|/);
    expect(markdown.match(/^### \d+\. Event /gm)).toHaveLength(3);
    expect(markdown).toContain("#### Exception: ExportError: value-11");
    expect(markdown).not.toContain("value-8");
    expect(markdown).toContain("```text\n  at exportHandler (/app/handlers.js:42)\n      > throw new Error(x);\n  at main (/app/index.js:3)\n```");
  });

  it("refuses a bad format or limit with 400", async () => {
    for (const query of ["?format=xml", "?limit=0", "?limit=101", "?limit=ten", "?download=maybe"]) {
      const response = await a.session.request(exportPath(a, issueId, query));
      expect(response.status, query).toBe(400);
      expect(response.body.error.code, query).toBe("VALIDATION_ERROR");
    }
  });

  it("answers another organization's issue as not found, by its path or under one's own project", async () => {
    const foreign = await a.session.request(exportPath(b, bIssueId, "?format=markdown"));
    expect(foreign.status).toBe(404);
    const ownProject = await a.session.request(exportPath(a, bIssueId, "?format=markdown"));
    expect(ownProject.status).toBe(404);
    expect(`${foreign.text}${ownProject.text}`).not.toContain("ForeignError");
  });
});
