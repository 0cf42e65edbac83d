import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpSession } from "../../../test/helpers/http-session";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import {
  createTriageProject,
  daysAgo,
  hoursAgo,
  issueByType,
  sendEvent,
  sendEvents,
  triageTenant,
  type TriageProject,
} from "../../../test/helpers/triage-seed";

describe("issue list", () => {
  let server: TestServer;
  let session: HttpSession;
  let project: TriageProject;
  let orgId: string;
  const list = (input: Record<string, unknown> = {}) => session.query("issue.list", { projectId: project.id, ...input });
  const rest = (search = "") => session.request(`/api/v1/organizations/${orgId}/projects/${project.id}/issues${search}`);
  const types = (items: { title: string }[]) => items.map((item) => item.title.split(":")[0]);

  beforeAll(async () => {
    server = await startTestServer();
    const tenant = await triageTenant(server, "Listing");
    ({ session, project } = tenant);
    orgId = tenant.org.id;
    await sendEvents(server, project, [
      { type: "AlphaError", value: "alpha failure", fn: "alphaHandler", timestamp: daysAgo(3), user: { id: "u1" } },
      { type: "AlphaError", value: "alpha failure", fn: "alphaHandler", timestamp: daysAgo(2), user: { id: "u2" } },
      { type: "AlphaError", value: "alpha failure", fn: "alphaHandler", timestamp: hoursAgo(1), user: { id: "u1" } },
      ...[30, 31, 32, 33, 34].map((hours) => ({
        type: "BetaError",
        value: "beta 100%_done",
        fn: "betaHandler",
        environment: "staging",
        level: "fatal",
        timestamp: hoursAgo(hours),
      })),
      { type: "GammaError", value: "gamma", fn: "gammaHandler", environment: "dev-box", level: "warning", timestamp: daysAgo(10) },
      { type: "DeltaError", value: "delta", fn: "checkoutSubmit", message: "needle in the message haystack", timestamp: hoursAgo(6) },
      { type: "DeltaError", value: "delta", fn: "checkoutSubmit", message: "needle in the message haystack", timestamp: hoursAgo(5) },
    ]);
  });
  afterAll(() => server.close());

  it("sorts by lastSeen:DESC by default, with the original product's fields", async () => {
    const { data } = await list();
    expect(types(data.items)).toEqual(["AlphaError", "DeltaError", "BetaError", "GammaError"]);
    const alpha = data.items[0];
    expect(alpha).toMatchObject({
      name: "AlphaError: alpha failure",
      status: "OPEN",
      severity: "HIGH",
      eventCount: 3,
      userCount: 2,
      environments: ["production"],
      projectId: project.id,
    });
    expect(alpha.lastSeen).toBeInstanceOf(Date);
    expect(data.meta).toEqual({ itemCount: 4, totalItems: 4, itemsPerPage: 20, totalPages: 1, currentPage: 1 });
  });

  it("sorts by event count either way and by several fields", async () => {
    expect(types((await list({ sort: "eventCount:DESC" })).data.items)).toEqual(["BetaError", "AlphaError", "DeltaError", "GammaError"]);
    expect(types((await list({ sort: "eventCount:ASC" })).data.items)).toEqual(["GammaError", "DeltaError", "AlphaError", "BetaError"]);
    expect(types((await list({ sort: "severity:DESC,lastSeen:ASC" })).data.items)).toEqual(["BetaError", "DeltaError", "AlphaError", "GammaError"]);
    const viaRest = await rest("?sort=firstSeen:ASC");
    expect(types(viaRest.body.items)).toEqual(["GammaError", "AlphaError", "BetaError", "DeltaError"]);
    expect(typeof viaRest.body.items[0].firstSeen).toBe("string");
  });

  it("refuses an unknown sort field naming the allowed ones, and sizes above 100", async () => {
    const unknown = await rest("?sort=bogus:DESC");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe("VALIDATION_ERROR");
    expect(unknown.body.error.message).toContain("Allowed: lastSeen, firstSeen, eventCount, userCount, severity, status, title");
    expect((await list({ sort: "bogus" })).error?.code).toBe("BAD_REQUEST");
    const tooBig = await rest("?size=101");
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.message).toContain("size must be between 1 and 100");
    expect((await rest("?size=100")).status).toBe(200);
    expect((await rest("?page=0")).status).toBe(400);
    expect((await list({ size: 101 })).error?.code).toBe("BAD_REQUEST");
  });

  it("pages with the original meta shape", async () => {
    const second = await rest("?size=3&page=2");
    expect(second.status).toBe(200);
    expect(types(second.body.items)).toEqual(["GammaError"]);
    expect(second.body.meta).toEqual({ itemCount: 1, totalItems: 4, itemsPerPage: 3, totalPages: 2, currentPage: 2 });
    const beyond = await rest("?size=3&page=9");
    expect(beyond.body).toEqual({ items: [], meta: { itemCount: 0, totalItems: 4, itemsPerPage: 3, totalPages: 2, currentPage: 9 } });
  });

  it("filters by environment bucket, repeatable or comma-separated", async () => {
    expect(types((await list({ environments: ["STAGING"] })).data.items)).toEqual(["BetaError"]);
    expect(types((await rest("?environments=DEVELOPMENT")).body.items)).toEqual(["GammaError"]);
    expect(types((await rest("?environments=STAGING&environments=DEVELOPMENT")).body.items)).toEqual(["BetaError", "GammaError"]);
    expect(types((await rest("?environments=PRODUCTION,STAGING")).body.items)).toEqual(["AlphaError", "DeltaError", "BetaError"]);
    expect((await rest("?environments=MARS")).status).toBe(400);
  });

  it("filters by last seen within dateFrom..dateTo", async () => {
    expect(types((await list({ dateFrom: daysAgo(5) })).data.items)).toEqual(["AlphaError", "DeltaError", "BetaError"]);
    expect(types((await list({ dateTo: daysAgo(1) })).data.items)).toEqual(["BetaError", "GammaError"]);
    const window = `?dateFrom=${hoursAgo(12).toISOString()}&dateTo=${hoursAgo(2).toISOString()}`;
    expect(types((await rest(window)).body.items)).toEqual(["DeltaError"]);
    expect((await rest("?dateFrom=yesterday-ish")).status).toBe(400);
  });

  it("matches the free-text query on the newest message too, not only the title", async () => {
    const own = await createTriageProject(session, "message search");
    await sendEvent(server, own, { type: "EpsilonError", value: "short", fn: "epsilonHandler", message: "payment gateway answered 502 for merchant zeta-77" });
    await sendEvent(server, own, { type: "ZetaError", value: "other", fn: "zetaHandler" });
    const found = await session.query("issue.list", { projectId: own.id, query: "merchant ZETA-77" });
    expect(types(found.data.items)).toEqual(["EpsilonError"]);
  });

  it("matches the free-text query on title (which carries the message) and culprit, case-insensitively, with % and _ literal", async () => {
    expect(types((await list({ query: "ALPHA fail" })).data.items)).toEqual(["AlphaError"]);
    expect(types((await list({ query: "checkoutsubmit" })).data.items)).toEqual(["DeltaError"]);
    expect(types((await list({ query: "DELTA" })).data.items)).toEqual(["DeltaError"]);
    expect(types((await list({ query: "100%_" })).data.items)).toEqual(["BetaError"]);
    expect(types((await list({ query: "%" })).data.items)).toEqual(["BetaError"]);
    expect(types((await list({ query: "a_pha" })).data.items)).toEqual([]);
  });

  it("filters by status and severity after triage", async () => {
    const gamma = await issueByType(session, project.id, "GammaError");
    expect((await session.mutation("issue.setStatus", { projectId: project.id, issueId: gamma.id, status: "IGNORED" })).error).toBeUndefined();
    expect(types((await list({ status: ["OPEN"] })).data.items)).toEqual(["AlphaError", "DeltaError", "BetaError"]);
    expect(types((await rest("?status=IGNORED")).body.items)).toEqual(["GammaError"]);
    expect(types((await rest("?severity=CRITICAL,MEDIUM")).body.items)).toEqual(["BetaError", "GammaError"]);
    expect(types((await list({ status: ["OPEN"], severity: ["HIGH"], environments: ["PRODUCTION"] })).data.items)).toEqual(["AlphaError", "DeltaError"]);
    expect((await rest("?status=open")).status).toBe(400);
  });

  it("skips empty filter values", async () => {
    const all = await rest("?status=&severity=&environments=&dateFrom=&dateTo=&query=&sort=&page=&size=");
    expect(all.status, all.text).toBe(200);
    expect(all.body.meta.totalItems).toBe(4);
    expect((await list({ status: [], query: "", environments: "", sort: "" })).data.items[0].title).toMatch(/^AlphaError/);
  });
});
