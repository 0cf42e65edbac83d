/**
 * Issue 31, "roles that mean something": the role matrix over every tRPC procedure, with one's
 * OWN organization's ids (the tenancy matrix tries another's). For each procedure the tenancy
 * table says which grant it needs (`requires`); a member holding a custom role is then refused
 * with everything but that grant, and let through with exactly it — so every check is the right
 * one and none is a role name in disguise. Procedures needing no grant answer a role granting
 * nothing at all. The built-in member role gets FORBIDDEN exactly where it lacks the grant.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_PERMISSIONS, permissionMapOf, permissionsOfRole, type Permission } from "../../src/shared/permissions";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createTriageProject, issueByType, sendEvent, triageTenant, type TriageProject } from "../helpers/triage-seed";
import { callProcedure, type ProcedurePath } from "../helpers/typed-trpc";
import { addMember, orgPost } from "./org-kit";
import { procedureEntries, ROUTES, routeUrl, type ProcedureEntry, type TenantIds } from "../tenancy/tenancy-table";
import { listRoutes, routeKey } from "../../src/server/rest/route-list";
import { createV1Router } from "../../src/server/composition/v1.router";

const PROBE_ROLE = "probe";

/** Destructive calls last, so every other call still finds the project, its key and its rule. */
const LAST: ProcedurePath[] = ["alert.delete", "project.revokeKey", "apiToken.revoke", "deletion.deleteIssue", "project.delete"];
/** REST deletes after the other routes, and deleting the project itself after every other delete. */
// Deletes last, the project's after the others, the organization's (which ends every membership) last of all.
const lateness = (route: { method: string; path: string }) =>
  Number(route.method === "delete") +
  Number(route.method === "delete" && route.path === "/organizations/:orgId/projects/:projectId") +
  2 * Number(route.method === "delete" && route.path === "/organizations/:orgId");
const inOrder = (entries: [ProcedurePath, ProcedureEntry<ProcedurePath>][]) =>
  [...entries].sort(([a], [b]) => LAST.indexOf(a) - LAST.indexOf(b) || a.localeCompare(b));

describe("product role matrix: every procedure with built-in and custom roles (issue 31)", () => {
  let server: TestServer;
  let owner: HttpSession;
  let probe: HttpSession;
  let member: HttpSession;
  let ids: TenantIds;
  let restIds: TenantIds;

  async function setProbeGrants(permissions: readonly Permission[]) {
    const updated = await orgPost(owner, "update-role", {
      organizationId: ids.orgId,
      roleName: PROBE_ROLE,
      data: { permission: permissionMapOf(permissions) },
    });
    expect(updated.status, updated.text).toBe(200);
  }

  /** A project with an issue, an exception, a key, a rule and an API token: each pass gets its own, as both end by deleting things. */
  async function seed(project: TriageProject, orgId: string): Promise<TenantIds> {
    await sendEvent(server, project, { type: "RoleMatrixError", value: "probe", fn: "probeHandler" });
    const issue = await issueByType(owner, project.id, "RoleMatrixError");
    const { data: exceptions } = await callProcedure(owner, "exception.list", { projectId: project.id, issueId: issue.id });
    const { data: view } = await callProcedure(owner, "project.get", { projectId: project.id });
    const { data: token } = await callProcedure(owner, "apiToken.create", { name: "matrix", scopes: ["event:read"] });
    const { data: rules } = await callProcedure(owner, "alert.list", { projectId: project.id });
    return {
      orgId,
      projectId: project.id,
      issueId: issue.id,
      exceptionId: exceptions!.items[0].id,
      keyId: view!.keys[0].id,
      apiTokenId: token!.token.id,
      ruleId: rules![0].id,
      conversationId: crypto.randomUUID(),
    };
  }

  beforeAll(async () => {
    server = await startTestServer();
    const tenant = await triageTenant(server, "Roles");
    owner = tenant.session;
    ids = await seed(tenant.project, tenant.org.id);
    restIds = await seed(await createTriageProject(owner, "Roles over REST"), tenant.org.id);
    const created = await orgPost(owner, "create-role", { organizationId: ids.orgId, role: PROBE_ROLE, permission: {} });
    expect(created.status, created.text).toBe(200);
    probe = (await addMember(server, owner, ids.orgId, PROBE_ROLE)).session;
    member = (await addMember(server, owner, ids.orgId, "member")).session;
  }, 180_000);
  afterAll(() => server.close());

  it("a triager changes an issue's status but cannot create a token, delete a project or connect the WAF; project and alert grants do their part", async () => {
    await setProbeGrants(["issue:triage"]);
    const resolved = await callProcedure(probe, "issue.setStatus", { projectId: ids.projectId, issueId: ids.issueId, status: "RESOLVED" });
    expect(resolved.error, resolved.error?.message).toBeUndefined();
    expect(resolved.data?.status).toBe("RESOLVED");
    const viaRest = await probe.request(`/api/v1/organizations/${ids.orgId}/projects/${ids.projectId}/issues/${ids.issueId}/status`, {
      method: "PUT",
      body: { status: "OPEN" },
    });
    expect(viaRest.status, viaRest.text).toBe(200);
    const token = await probe.request(`/api/v1/organizations/${ids.orgId}/api-tokens`, { body: { name: "nope", scopes: ["event:read"] } });
    expect(token.status).toBe(403);
    expect(token.body.error.message).toBe("Your role cannot create API tokens");
    expect((await callProcedure(probe, "project.delete", { projectId: ids.projectId })).error?.code).toBe("FORBIDDEN");
    const waf = await callProcedure(probe, "waf.connect", {
      region: "eu-west-1",
      scope: "REGIONAL",
      accessKeyId: "AKIAIOSFODNN7EXAMPLE",
      secretAccessKey: "x".repeat(40),
    });
    expect(waf.error?.code).toBe("FORBIDDEN");
    expect((await callProcedure(owner, "project.get", { projectId: ids.projectId })).data?.id).toBe(ids.projectId);

    await setProbeGrants(["project:create"]);
    const made = await callProcedure(probe, "project.create", { name: "Made by a custom role", platform: "NODE_JS" });
    expect(made.error, made.error?.message).toBeUndefined();
    expect(made.data?.organizationId).toBe(ids.orgId);

    await setProbeGrants(["alert:manage"]);
    const rule = await callProcedure(probe, "alert.create", {
      projectId: ids.projectId,
      name: "Made by a custom role",
      enabled: true,
      trigger: { type: "new_issue" },
      filters: {},
      actions: [{ type: "email", to: "members" }],
      intervalMinutes: 30,
      maxPerHour: 20,
    });
    expect(rule.error, rule.error?.message).toBeUndefined();
    expect(rule.data?.name).toBe("Made by a custom role");
  });

  it("refuses each call to a role lacking its grant and lets exactly that grant through", async () => {
    const memberHolds = permissionsOfRole("member", new Map());
    let checks = 0;
    // Conversations belong to their owner, not to a role; billing is hosted-only (billing-tenancy.int.test.ts).
    const entries = inOrder(procedureEntries().filter(([, entry]) => entry.scope !== "public" && entry.scope !== "conversation" && !entry.hostedOnly));
    for (const [path, entry] of entries) {
      const required = entry.requires === undefined ? [] : [entry.requires].flat();
      const input = entry.input(ids);
      const memberAnswer = await callProcedure(member, path, input);
      const memberMay = required.length === 0 || required.some((permission) => memberHolds.has(permission));
      if (!memberMay) expect(memberAnswer.error?.code, `member → ${path}`).toBe("FORBIDDEN");
      if (required.length > 0) {
        await setProbeGrants(ALL_PERMISSIONS.filter((permission) => !required.includes(permission)));
        const refused = await callProcedure(probe, path, input);
        expect(refused.error?.code, `all but ${required.join("|")} → ${path}`).toBe("FORBIDDEN");
      }
      await setProbeGrants(required.slice(0, 1));
      const allowed = await callProcedure(probe, path, input);
      expect(allowed.error?.code, `only ${required[0] ?? "nothing"} → ${path}: ${allowed.error?.message}`).not.toBe("FORBIDDEN");
      checks += 1;
    }
    console.log(`product role matrix: ${checks} procedures`);
    expect(checks).toBeGreaterThan(40);
  }, 300_000);

  it("refuses each /api/v1 route to a role lacking its grant and lets exactly that grant through", async () => {
    const memberHolds = permissionsOfRole("member", new Map());
    const routes = listRoutes(createV1Router(server.services));
    // Deletes last; conversations are their owner's and billing is hosted-only (as for procedures).
    const ordered = routes
      .filter((route) => !ROUTES[routeKey(route)].public && !route.path.startsWith("/ai/agents/conversations") && !route.path.includes("billing"))
      .sort((a, b) => lateness(a) - lateness(b));
    let checks = 0;
    for (const route of ordered) {
      const entry = ROUTES[routeKey(route)];
      const required = entry.requires === undefined ? [] : [entry.requires].flat();
      const call = (session: HttpSession) =>
        session.request(routeUrl(route.path, entry, restIds.orgId, restIds), { method: route.method.toUpperCase(), body: entry.body?.(restIds) });
      const label = routeKey(route);
      if (!(required.length === 0 || required.some((permission) => memberHolds.has(permission))))
        expect((await call(member)).status, `member → ${label}`).toBe(403);
      if (required.length > 0) {
        await setProbeGrants(ALL_PERMISSIONS.filter((permission) => !required.includes(permission)));
        expect((await call(probe)).status, `all but ${required.join("|")} → ${label}`).toBe(403);
      }
      await setProbeGrants(required.slice(0, 1));
      const allowed = await call(probe);
      expect(allowed.status, `only ${required[0] ?? "nothing"} → ${label}: ${allowed.text}`).not.toBe(403);
      checks += 1;
    }
    console.log(`product role matrix: ${checks} routes`);
    expect(checks).toBeGreaterThan(30);
  }, 300_000);
});
