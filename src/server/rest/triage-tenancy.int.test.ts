import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../../../test/helpers/http-session";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { issueByType, sendAnalyticsEvent, sendEvent, triageTenant, utcDay } from "../../../test/helpers/triage-seed";
import { issueActivities, issues } from "../db/schema/index";
import { appRouter } from "../trpc/router";
import { API_ROUTES } from "./openapi";

const MARKER = "tenant-a-secret-marker";
const TRIAGE_NAMESPACES = ["issue", "exception", "stats", "event"];

type Ids = { projectId: string; issueId: string; exceptionId: string };

/** A valid input for every triage procedure; the matrix fails when a new procedure has no entry. */
const PROCEDURE_INPUTS: Record<string, (ids: Ids) => Record<string, unknown>> = {
  "issue.list": ({ projectId }) => ({ projectId }),
  "issue.get": ({ projectId, issueId }) => ({ projectId, issueId }),
  "issue.setStatus": ({ projectId, issueId }) => ({ projectId, issueId, status: "RESOLVED" }),
  "issue.setSeverity": ({ projectId, issueId }) => ({ projectId, issueId, severity: "LOW" }),
  "issue.bulkSetStatus": ({ projectId, issueId }) => ({ projectId, issueIds: [issueId], status: "RESOLVED" }),
  "exception.list": ({ projectId, issueId }) => ({ projectId, issueId }),
  "exception.get": ({ projectId, exceptionId }) => ({ projectId, exceptionId }),
  "stats.daily": ({ projectId, issueId }) => ({ projectId, issueId, from: utcDay(new Date()), to: utcDay(new Date()) }),
  "event.list": ({ projectId }) => ({ projectId }),
};
const MUTATIONS = new Set(["issue.setStatus", "issue.setSeverity", "issue.bulkSetStatus"]);
/** Procedures that take no issue or exception id: only the foreign-project case applies. */
const PROJECT_ONLY = new Set(["issue.list", "event.list"]);

describe("triage tenancy: another organization's ids answer NOT_FOUND everywhere", () => {
  let server: TestServer;
  let a: Awaited<ReturnType<typeof triageTenant>>;
  let b: Awaited<ReturnType<typeof triageTenant>>;
  let aIds: Ids;
  let bIds: Ids;
  const texts: string[] = [];

  const idsOf = async (tenant: typeof a, type: string): Promise<Ids> => {
    const issue = await issueByType(tenant.session, tenant.project.id, type);
    const { data } = await tenant.session.query("exception.list", { projectId: tenant.project.id, issueId: issue.id });
    return { projectId: tenant.project.id, issueId: issue.id, exceptionId: data.items[0].id };
  };
  const call = async (session: HttpSession, path: string, input: unknown) => {
    const result = MUTATIONS.has(path) ? await session.mutation(path, input) : await session.query(path, input);
    texts.push(JSON.stringify(result));
    return result;
  };

  beforeAll(async () => {
    server = await startTestServer();
    a = await triageTenant(server, "Tenant A");
    b = await triageTenant(server, "Tenant B");
    await sendEvent(server, a.project, {
      type: "SecretError",
      value: MARKER,
      fn: "secretHandler",
      tags: { marker: MARKER },
      user: { email: `${MARKER}@a.example` },
    });
    await sendAnalyticsEvent(server, a.project, MARKER, { marker: MARKER });
    await sendEvent(server, b.project, { type: "OwnError", value: "b's own", fn: "own" });
    aIds = await idsOf(a, "SecretError");
    bIds = await idsOf(b, "OwnError");
  });
  afterAll(() => server.close());

  it("has an entry for every triage procedure of the tRPC router", () => {
    const procedures = Object.keys(appRouter._def.procedures).filter((path) => TRIAGE_NAMESPACES.includes(path.split(".")[0]));
    expect(procedures.sort()).toEqual(Object.keys(PROCEDURE_INPUTS).sort());
  });

  it("tRPC: a foreign project, or a foreign issue/exception inside one's own project, is NOT_FOUND", async () => {
    for (const [path, input] of Object.entries(PROCEDURE_INPUTS)) {
      const foreignProject = await call(b.session, path, input(aIds));
      expect(foreignProject.error?.code, `${path} with A's project`).toBe("NOT_FOUND");
      if (PROJECT_ONLY.has(path)) continue;
      const foreignRow = await call(b.session, path, input({ ...aIds, projectId: bIds.projectId }));
      if (path === "issue.bulkSetStatus") expect(foreignRow.data).toEqual({ updated: 0 });
      else expect(foreignRow.error?.code, `${path} with A's row in B's project`).toBe("NOT_FOUND");
    }
  });

  it("REST: every route answers 404 for A's organization, A's project under B's organization, and A's rows", async () => {
    const routes = API_ROUTES.filter((route) => !route.public);
    expect(routes.length).toBeGreaterThanOrEqual(12);
    const bodies: Record<string, unknown> = {
      "/issues/:issueId/status": { status: "RESOLVED" },
      "/issues/:issueId/severity": { severity: "LOW" },
      "/issues/bulk-status": { issueIds: [aIds.issueId], status: "RESOLVED" },
      "/projects": { name: "Intruder", platform: "NODE_JS" },
    };
    const today = utcDay(new Date());
    for (const route of routes) {
      const suffix = Object.keys(bodies).find((end) => route.path.endsWith(end));
      const body = route.method === "get" ? undefined : suffix ? bodies[suffix] : {};
      const query = route.path.endsWith("/statistics/daily")
        ? `?from=${today}&to=${today}&issueId=${aIds.issueId}`
        : route.path.endsWith("/exceptions")
          ? `?issueId=${aIds.issueId}`
          : "";
      const bulk = route.path.endsWith("/bulk-status");
      // Row-level case: B's own organization and project, A's issue or exception id.
      const takesRow = /:issueId|:exceptionId|\/bulk-status$|\/exceptions$|\/daily$/.test(route.path);
      const cases = [
        { orgId: a.org.id, ids: aIds, expected: 404 },
        ...(route.path.includes(":projectId") ? [{ orgId: b.org.id, ids: aIds, expected: 404 }] : []),
        ...(takesRow ? [{ orgId: b.org.id, ids: { ...aIds, projectId: bIds.projectId }, expected: bulk ? 200 : 404 }] : []),
      ];
      for (const { orgId, ids, expected } of cases) {
        const url =
          `/api/v1${route.path}`
            .replace(":orgId", orgId)
            .replace(":projectId", ids.projectId)
            .replace(":issueId", ids.issueId)
            .replace(":exceptionId", ids.exceptionId) + query;
        const response = await b.session.request(url, { method: route.method.toUpperCase(), body });
        texts.push(response.text);
        expect(response.status, `${route.method.toUpperCase()} ${url}`).toBe(expected);
        if (expected === 404) expect(response.body.error.code).toBe("NOT_FOUND");
        else expect(response.body).toEqual({ updated: 0 });
      }
      const anonymous = await new HttpSession(server.url).request(
        `/api/v1${route.path}`
          .replace(":orgId", a.org.id)
          .replace(":projectId", aIds.projectId)
          .replace(":issueId", aIds.issueId)
          .replace(":exceptionId", aIds.exceptionId),
        { method: route.method.toUpperCase(), body },
      );
      expect(anonymous.status, `anonymous ${route.method} ${route.path}`).toBe(401);
    }
  });

  it("ignores mass-assigned organizationId/projectId: writes land on the path's (or input's own) issue", async () => {
    const viaTrpc = await b.session.mutation("issue.setSeverity", { ...bIds, severity: "CRITICAL", organizationId: a.org.id });
    expect(viaTrpc.data.id).toBe(bIds.issueId);
    const viaRest = await b.session.request(`/api/v1/organizations/${b.org.id}/projects/${bIds.projectId}/issues/${bIds.issueId}/status`, {
      method: "PUT",
      body: { status: "IGNORED", organizationId: a.org.id, projectId: aIds.projectId, issueId: aIds.issueId },
    });
    expect(viaRest.status).toBe(200);
    expect(viaRest.body).toMatchObject({ id: bIds.issueId, status: "IGNORED", severity: "CRITICAL" });
    const listed = await b.session.request(`/api/v1/organizations/${b.org.id}/projects/${bIds.projectId}/issues?projectId=${aIds.projectId}`);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([bIds.issueId]);
  });

  it("left A's data untouched and leaked none of it", async () => {
    const [issue] = await server.database.db.select().from(issues).where(eq(issues.id, aIds.issueId));
    expect(issue).toMatchObject({ status: "OPEN", severity: "HIGH" });
    expect(await server.database.db.select().from(issueActivities).where(eq(issueActivities.issueId, aIds.issueId))).toHaveLength(0);
    const everything = texts.join("\n");
    expect(texts.length).toBeGreaterThan(40);
    expect(everything).not.toContain(MARKER);
    expect(everything).not.toContain("SecretError");
    expect(everything).not.toContain("secretHandler");
  });
});
