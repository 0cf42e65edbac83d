import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../../../test/helpers/http-session";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { issueByType, sendAnalyticsEvent, sendEvent, triageTenant } from "../../../test/helpers/triage-seed";
import { callProcedure, massAssigned, type ProcedureInput, type ProcedurePath } from "../../../test/helpers/typed-trpc";
import { procedureEntries, PROCEDURES, ROUTES, routeUrl, type TenantIds } from "../../../test/tenancy/tenancy-table";
import { issueActivities, issues, projectKeys } from "../db/schema/index";
import { appRouter } from "../composition/trpc.router";

const MARKER = "tenant-a-secret-marker";
const TRIAGE_NAMESPACES = ["issue", "exception", "stats", "event"];
const isTriage = (path: string) => TRIAGE_NAMESPACES.includes(path.split(".")[0]);

// The calls and expected answers come from the one tenancy table (test/tenancy/tenancy-table.ts):
// here B probes A's ids, both as a foreign project and as foreign rows inside B's own project.
describe("triage tenancy: another organization's ids answer NOT_FOUND everywhere", () => {
  let server: TestServer;
  let a: Awaited<ReturnType<typeof triageTenant>>;
  let b: Awaited<ReturnType<typeof triageTenant>>;
  let aIds: TenantIds;
  let bIds: TenantIds;
  const texts: string[] = [];

  const idsOf = async (tenant: typeof a, type: string): Promise<TenantIds> => {
    const issue = await issueByType(tenant.session, tenant.project.id, type);
    const { data: exceptions } = await callProcedure(tenant.session, "exception.list", { projectId: tenant.project.id, issueId: issue.id });
    const { data: project } = await callProcedure(tenant.session, "project.get", { projectId: tenant.project.id });
    const { data: rules } = await callProcedure(tenant.session, "alert.list", { projectId: tenant.project.id });
    return {
      orgId: tenant.org.id,
      projectId: tenant.project.id,
      issueId: issue.id,
      exceptionId: exceptions!.items[0].id,
      keyId: project!.keys[0].id,
      ruleId: rules![0].id,
      conversationId: crypto.randomUUID(),
    };
  };
  const call = async <P extends ProcedurePath>(session: HttpSession, path: P, input: ProcedureInput<P>) => {
    const result = await callProcedure(session, path, input);
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
    const procedures = Object.keys(appRouter._def.procedures).filter(isTriage);
    expect(procedures.sort()).toEqual(Object.keys(PROCEDURES).filter(isTriage).sort());
  });

  it("tRPC: a foreign project, or a foreign issue/exception/key inside one's own project, is NOT_FOUND", async () => {
    // Every project-scoped procedure, the triage ones among them.
    const projectScoped = procedureEntries().filter(([, entry]) => entry.scope === "project");
    expect(projectScoped.map(([path]) => path)).toEqual(expect.arrayContaining(Object.keys(PROCEDURES).filter(isTriage)));
    for (const [path, entry] of projectScoped) {
      const foreignProject = await call(b.session, path, entry.input(aIds));
      expect(foreignProject.error?.code, `${path} with A's project`).toBe("NOT_FOUND");
      if (!entry.foreignRow) continue;
      const foreignRow = await call(b.session, path, entry.input({ ...aIds, orgId: bIds.orgId, projectId: bIds.projectId }));
      if ("data" in entry.foreignRow) expect(foreignRow.data, `${path} with A's row in B's project`).toEqual(entry.foreignRow.data);
      else expect(foreignRow.error?.code, `${path} with A's row in B's project`).toBe(entry.foreignRow.error);
    }
  });

  it("REST: every route answers 404 for A's organization, A's project under B's organization, and A's rows", async () => {
    // Session- and caller-scoped routes name no organization: B's caller gets B's own data there (the matrix covers them).
    const routes = Object.entries(ROUTES).filter(([, entry]) => !entry.public && !entry.sessionScoped && !entry.callerScoped);
    expect(routes.length).toBeGreaterThanOrEqual(12);
    for (const [key, entry] of routes) {
      const [method, path] = key.split(" ");
      const body = entry.body?.(aIds);
      const cases = [
        { orgId: a.org.id, ids: aIds, expected: { status: 404 } },
        ...(path.includes(":projectId") ? [{ orgId: b.org.id, ids: aIds, expected: { status: 404 } }] : []),
        // Row-level case: B's own organization and project, A's issue or exception id.
        ...(entry.foreignRow ? [{ orgId: b.org.id, ids: { ...aIds, projectId: bIds.projectId }, expected: entry.foreignRow }] : []),
      ];
      for (const { orgId, ids, expected } of cases) {
        const url = routeUrl(path, entry, orgId, ids);
        const response = await b.session.request(url, { method: method.toUpperCase(), body });
        texts.push(response.text);
        expect(response.status, `${method.toUpperCase()} ${url}`).toBe(expected.status);
        if ("body" in expected) expect(response.body).toEqual(expected.body);
        else expect(response.body.error.code).toBe("NOT_FOUND");
      }
      const anonymous = await new HttpSession(server.url).request(routeUrl(path, entry, a.org.id, aIds), { method: method.toUpperCase(), body });
      expect(anonymous.status, `anonymous ${key}`).toBe(401);
    }
  });

  it("ignores mass-assigned organizationId/projectId: writes land on the path's (or input's own) issue", async () => {
    const viaTrpc = await callProcedure(
      b.session,
      "issue.setSeverity",
      massAssigned({ projectId: bIds.projectId, issueId: bIds.issueId, severity: "CRITICAL" }, { exceptionId: bIds.exceptionId, organizationId: a.org.id }),
    );
    expect(viaTrpc.data?.id).toBe(bIds.issueId);
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
    // The row-level key probes (rotateKey/revokeKey with A's key in B's project) revoked nothing.
    const aKeys = await server.database.db.select().from(projectKeys).where(eq(projectKeys.projectId, aIds.projectId));
    expect(aKeys.map((key) => [key.id, key.revokedAt])).toEqual([[aIds.keyId, null]]);
    const everything = texts.join("\n");
    expect(texts.length).toBeGreaterThan(40);
    expect(everything).not.toContain(MARKER);
    expect(everything).not.toContain("SecretError");
    expect(everything).not.toContain("secretHandler");
  });
});
