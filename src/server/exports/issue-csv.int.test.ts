import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { issueByType, sendEvent, triageTenant } from "../../../test/helpers/triage-seed";
import { ISSUE_CSV_COLUMNS } from "./issue-csv.service";

/** A small RFC 4180 reader for the assertions: quoted fields may hold commas, quotes and newlines. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") (row.push(field), (field = ""));
    else if (char === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      ((row = []), (field = ""), i++);
    } else field += char;
  }
  return rows;
}

/** Issue 35: the issue list as CSV, with exactly the list's filters. */
describe("issue list CSV export", () => {
  let server: TestServer;
  let a: Awaited<ReturnType<typeof triageTenant>>;
  let b: Awaited<ReturnType<typeof triageTenant>>;
  const csvPath = (tenant: typeof a, query: string) => `/api/v1/organizations/${tenant.org.id}/projects/${tenant.project.id}/issues/export?${query}`;
  const exportCsv = async (query: string) => {
    const response = await a.session.request(csvPath(a, query));
    expect(response.status, response.text).toBe(200);
    const [header, ...rows] = parseCsv(response.text);
    expect(header).toEqual([...ISSUE_CSV_COLUMNS]);
    return { response, rows, titles: rows.map((row) => row[1]).sort() };
  };

  beforeAll(async () => {
    server = await startTestServer();
    a = await triageTenant(server, "Csv A");
    b = await triageTenant(server, "Csv B");
    await sendEvent(server, a.project, { type: "ProdError", value: "checkout, failed", fn: "prod", environment: "production", release: "shop@2.0.0" });
    await sendEvent(server, a.project, { type: "ProdError", value: "checkout, failed", fn: "prod", environment: "production", release: "shop@2.0.0" });
    await sendEvent(server, a.project, { type: "StagingError", value: 'said "no"', fn: "staging", environment: "staging" });
    await sendEvent(server, a.project, { type: "=HYPERLINK", value: "evil", fn: "formula", environment: "production" });
    await sendEvent(server, a.project, { type: "ResolvedError", value: "gone", fn: "resolved", environment: "production" });
    const resolved = await issueByType(a.session, a.project.id, "ResolvedError");
    expect((await a.session.mutation("issue.setStatus", { projectId: a.project.id, issueId: resolved.id, status: "RESOLVED" })).error).toBeUndefined();
    await sendEvent(server, b.project, { type: "ForeignError", value: "b", fn: "foreign" });
  });
  afterAll(() => server.close());

  it("streams every issue as a download, with quoting, counts, releases and links", async () => {
    const { response, rows, titles } = await exportCsv("format=csv");
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename=issues-${a.project.id.slice(0, 8)}.csv`);
    expect(titles).toEqual(["'=HYPERLINK: evil", "ProdError: checkout, failed", "ResolvedError: gone", 'StagingError: said "no"']);
    const prod = rows.find((row) => row[1].startsWith("ProdError"))!;
    const column = (name: (typeof ISSUE_CSV_COLUMNS)[number]) => prod[ISSUE_CSV_COLUMNS.indexOf(name)];
    expect(column("events")).toBe("2");
    expect(column("status")).toBe("OPEN");
    expect(column("firstRelease")).toBe("shop@2.0.0");
    expect(column("url")).toBe(`${server.env.API_URL.replace(/\/$/, "")}/dashboard/issues/${column("id")}?projectId=${a.project.id}`);
    // The raw text shows the quoting itself.
    expect(response.text).toContain('"ProdError: checkout, failed"');
    expect(response.text).toContain('"StagingError: said ""no"""');
  });

  it("honours the list's filters: status, environment and free text, as issue.list does", async () => {
    const open = await exportCsv("status=OPEN");
    expect(open.titles).not.toContain("ResolvedError: gone");
    expect(open.rows).toHaveLength(3);
    const staging = await exportCsv("environments=STAGING");
    expect(staging.titles).toEqual(['StagingError: said "no"']);
    const query = await exportCsv("query=checkout&status=OPEN");
    expect(query.titles).toEqual(["ProdError: checkout, failed"]);
    const list = await a.session.query("issue.list", { projectId: a.project.id, status: ["RESOLVED"] });
    const resolved = await exportCsv("status=RESOLVED");
    expect(resolved.rows.map((row) => row[0])).toEqual(list.data.items.map((item: { id: string }) => item.id));
  });

  it("refuses a bad filter or format with 400 and another organization's project with 404", async () => {
    expect((await a.session.request(csvPath(a, "status=LOST"))).status).toBe(400);
    expect((await a.session.request(csvPath(a, "format=xlsx"))).status).toBe(400);
    const foreign = await a.session.request(csvPath(b, "format=csv"));
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain("ForeignError");
  });
});
