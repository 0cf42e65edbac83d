import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { executeRows } from "../../src/server/db/execute";
import { createLogger } from "../../src/server/logger";
import { listRoutes } from "../../src/server/rest/route-list";
import { createV1Router } from "../../src/server/rest/v1.router";
import { appRouter } from "../../src/server/trpc/router";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { issueByType, sendAnalyticsEvent, sendEvent, triageTenant, utcDay } from "../helpers/triage-seed";
import { lastMail, signUpVerified } from "../helpers/test-users";

/**
 * Battery E1/E3 across the WHOLE API surface: every tRPC procedure and every /api/v1 route must
 * have an entry here (the test fails otherwise). Organization A's owner, admin and member, an
 * outsider without an organization, and an anonymous caller all try B's ids: every one is refused
 * (NOT_FOUND for signed-in callers, UNAUTHORIZED for anonymous), no answer contains B's ids or
 * marker strings, and a checksum of B's rows is unchanged afterwards.
 */
const MARKER = "tenant-b-marker-5e1f";

interface Ids {
  orgId: string;
  projectId: string;
  issueId: string;
  exceptionId: string;
  keyId: string;
}

type Scope = "public" | "organization" | "project";
interface ProcedureEntry {
  kind: "query" | "mutation";
  scope: Scope;
  input: (ids: Ids) => unknown;
}

const today = utcDay(new Date());
const PROCEDURES: Record<string, ProcedureEntry> = {
  "config.get": { kind: "query", scope: "public", input: () => undefined },
  "project.list": { kind: "query", scope: "organization", input: () => undefined },
  "project.overview": { kind: "query", scope: "organization", input: () => undefined },
  "project.get": { kind: "query", scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "project.create": { kind: "mutation", scope: "organization", input: (ids) => ({ name: "intruder", platform: "NODE_JS", organizationId: ids.orgId }) },
  "project.rename": { kind: "mutation", scope: "project", input: (ids) => ({ projectId: ids.projectId, name: "pwned" }) },
  "project.delete": { kind: "mutation", scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "project.createKey": { kind: "mutation", scope: "project", input: (ids) => ({ projectId: ids.projectId, label: "stolen" }) },
  "project.rotateKey": { kind: "mutation", scope: "project", input: (ids) => ({ projectId: ids.projectId, keyId: ids.keyId }) },
  "project.revokeKey": { kind: "mutation", scope: "project", input: (ids) => ({ projectId: ids.projectId, keyId: ids.keyId }) },
  "issue.list": { kind: "query", scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "issue.get": { kind: "query", scope: "project", input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId }) },
  "issue.setStatus": { kind: "mutation", scope: "project", input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId, status: "RESOLVED" }) },
  "issue.setSeverity": { kind: "mutation", scope: "project", input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId, severity: "LOW" }) },
  "issue.bulkSetStatus": { kind: "mutation", scope: "project", input: (ids) => ({ projectId: ids.projectId, issueIds: [ids.issueId], status: "IGNORED" }) },
  "exception.list": { kind: "query", scope: "project", input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId }) },
  "exception.get": { kind: "query", scope: "project", input: (ids) => ({ projectId: ids.projectId, exceptionId: ids.exceptionId }) },
  "stats.daily": { kind: "query", scope: "project", input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId, from: today, to: today }) },
  "event.list": { kind: "query", scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
};

/** Bodies for the REST writes; every other route is a GET. */
const REST_BODIES: Record<string, unknown> = {
  "post /organizations/:orgId/projects/:projectId/issues/bulk-status": { issueIds: ["ISSUE_ID"], status: "IGNORED" },
  "post /organizations/:orgId/projects": { name: "intruder", platform: "NODE_JS" },
  "put /organizations/:orgId/projects/:projectId/issues/:issueId/status": { status: "RESOLVED" },
  "put /organizations/:orgId/projects/:projectId/issues/:issueId/severity": { severity: "LOW" },
};
const restQuery = (path: string, ids: Ids) =>
  path.endsWith("/statistics/daily") ? `?from=${today}&to=${today}&issueId=${ids.issueId}` : path.endsWith("/exceptions") ? `?issueId=${ids.issueId}` : "";
const PUBLIC_ROUTES = new Set(["get /openapi.json"]);

/** B's tenant rows, hashed, to prove nothing of B changed. */
async function checksumOf(server: TestServer, orgId: string) {
  const tables = [
    "organizations",
    "members",
    "invitations",
    "teams",
    "projects",
    "project_keys",
    "issues",
    "occurrences",
    "issue_activities",
    "events",
    "issue_daily_counts",
    "project_daily_counts",
    "issue_tag_counts",
  ];
  const sums: string[] = [];
  for (const table of tables) {
    const column = table === "organizations" ? "id" : "organization_id";
    const [row] = await executeRows<{ sum: string | null }>(
      server.database.db,
      sql`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from ${sql.identifier(table)} t where ${sql.identifier(column)} = ${orgId}`,
    );
    sums.push(`${table}:${row.sum}`);
  }
  return sums.join("\n");
}

describe("tenancy matrix over every procedure and route (battery E1, E3)", () => {
  let server: TestServer;
  let b: Awaited<ReturnType<typeof triageTenant>>;
  let bIds: Ids;
  let bInvitationId: string;
  let bMemberId: string;
  let aOrgId: string;
  let checksumBefore: string;
  const actors: Record<string, HttpSession> = {};
  const transcripts: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    b = await triageTenant(server, "Tenant B");
    await sendEvent(server, b.project, { type: "MarkerError", value: MARKER, fn: "markerHandler", tags: { marker: MARKER } });
    await sendAnalyticsEvent(server, b.project, MARKER, { marker: MARKER });
    const issue = await issueByType(b.session, b.project.id, "MarkerError");
    // The marker must be in B's tag counts too (written about once a second) before anyone probes.
    await vi.waitFor(
      async () => {
        const { data } = await b.session.query("issue.get", { projectId: b.project.id, issueId: issue.id });
        expect(data.tags.some((tag: { key: string }) => tag.key === "marker")).toBe(true);
      },
      { timeout: 5000, interval: 100 },
    );
    const { data: exceptions } = await b.session.query("exception.list", { projectId: b.project.id, issueId: issue.id });
    const { data: project } = await b.session.query("project.get", { projectId: b.project.id });
    bIds = { orgId: b.org.id, projectId: b.project.id, issueId: issue.id, exceptionId: exceptions.items[0].id, keyId: project.keys[0].id };
    const invited = await b.session.request("/api/auth/organization/invite-member", { body: { email: "b-invitee@example.com", role: "member" } });
    bInvitationId = invited.body.id;
    await b.session.request("/api/auth/organization/create-team", { body: { name: `${MARKER}-team` } });
    const full = await b.session.request(`/api/auth/organization/get-full-organization?organizationId=${b.org.id}`);
    bMemberId = full.body.members[0].id;

    const a = await triageTenant(server, "Tenant A");
    aOrgId = a.org.id;
    actors.ownerA = a.session;
    for (const role of ["admin", "member"] as const) {
      const email = `${role}-a-${Date.now()}@example.com`;
      const invite = await a.session.request("/api/auth/organization/invite-member", { body: { email, role } });
      expect(invite.status, invite.text).toBe(200);
      const joined = await signUpVerified(server, { email, name: `${role} A` });
      const accepted = await joined.session.request("/api/auth/organization/accept-invitation", {
        body: { invitationId: new URL(lastMail(server, email, "invitation").actionUrl).searchParams.get("invitationId") },
      });
      expect(accepted.status, accepted.text).toBe(200);
      await joined.session.request("/api/auth/organization/set-active", { body: { organizationId: a.org.id } });
      actors[`${role}A`] = joined.session;
    }
    actors.outsider = (await signUpVerified(server, { name: "Outsider" })).session;
    actors.anonymous = new HttpSession(server.url);
    checksumBefore = await checksumOf(server, b.org.id);
  }, 120_000);
  afterAll(() => server.close());

  it("has an entry for every tRPC procedure", () => {
    expect(Object.keys(appRouter._def.procedures).sort()).toEqual(Object.keys(PROCEDURES).sort());
  });

  it("refuses B's ids on every tRPC procedure for every actor of A, an outsider and an anonymous caller", async () => {
    let checks = 0;
    for (const [path, entry] of Object.entries(PROCEDURES)) {
      for (const [actor, session] of Object.entries(actors)) {
        const input = entry.input(bIds);
        const result = entry.kind === "query" ? await session.query(path, input) : await session.mutation(path, input);
        transcripts.push(JSON.stringify(result));
        checks += 1;
        const label = `${actor} → ${path}`;
        if (entry.scope === "public") expect(result.error, label).toBeUndefined();
        else if (actor === "anonymous") expect(result.error?.code, label).toBe("UNAUTHORIZED");
        else if (entry.scope === "project" || actor === "outsider") expect(result.error?.code, label).toBe("NOT_FOUND");
        else if (path === "project.create") {
          // Mass-assigned organizationId is ignored: the project lands in A (or the role is refused).
          if (actor === "memberA") expect(result.error?.code, label).toBe("FORBIDDEN");
          else expect(result.data?.organizationId, label).toBe(aOrgId);
        } else expect(result.error, label).toBeUndefined();
      }
    }
    console.log(`tenancy matrix: ${checks} tRPC calls`);
  });

  it("refuses B's ids on every /api/v1 route", async () => {
    const logger = createLogger("silent");
    const routes = listRoutes(createV1Router({ env: server.env, db: server.database.db, auth: server.auth, logger }));
    const keys = routes.map((route) => `${route.method} ${route.path}`);
    // Every registered route is covered below; writes need a body entry.
    for (const key of keys) if (!key.startsWith("get ") && !PUBLIC_ROUTES.has(key)) expect(REST_BODIES, `body for ${key}`).toHaveProperty([key]);
    let checks = 0;
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      if (PUBLIC_ROUTES.has(key)) continue;
      const fill = (orgId: string) =>
        `/api/v1${route.path}`
          .replace(":orgId", orgId)
          .replace(":projectId", bIds.projectId)
          .replace(":issueId", bIds.issueId)
          .replace(":exceptionId", bIds.exceptionId) + restQuery(route.path, bIds);
      for (const [actor, session] of Object.entries(actors)) {
        for (const orgId of [bIds.orgId, aOrgId]) {
          if (!route.path.includes(":projectId") && orgId === aOrgId) continue; // A's own org list is allowed
          const body = REST_BODIES[key] === undefined ? undefined : JSON.parse(JSON.stringify(REST_BODIES[key]).replace("ISSUE_ID", bIds.issueId));
          const response = await session.request(fill(orgId), { method: route.method.toUpperCase(), body });
          transcripts.push(response.text);
          checks += 1;
          expect(response.status, `${actor} ${key} org=${orgId === aOrgId ? "A" : "B"}`).toBe(actor === "anonymous" ? 401 : 404);
        }
      }
    }
    console.log(`tenancy matrix: ${checks} REST calls over ${routes.length} routes`);
  });

  it("refuses B's ids on the organization endpoints of the auth service", async () => {
    const attempts: [string, unknown][] = [
      [`/api/auth/organization/get-full-organization?organizationId=${bIds.orgId}`, undefined],
      [`/api/auth/organization/list-members?organizationId=${bIds.orgId}`, undefined],
      ["/api/auth/organization/set-active", { organizationId: bIds.orgId }],
      ["/api/auth/organization/update", { organizationId: bIds.orgId, data: { name: "pwned" } }],
      ["/api/auth/organization/delete", { organizationId: bIds.orgId }],
      ["/api/auth/organization/invite-member", { organizationId: bIds.orgId, email: "intruder@example.com", role: "owner" }],
      ["/api/auth/organization/cancel-invitation", { invitationId: bInvitationId }],
      ["/api/auth/organization/accept-invitation", { invitationId: bInvitationId }],
      ["/api/auth/organization/remove-member", { organizationId: bIds.orgId, memberIdOrEmail: bMemberId }],
      ["/api/auth/organization/update-member-role", { organizationId: bIds.orgId, memberId: bMemberId, role: "member" }],
      ["/api/auth/organization/create-team", { organizationId: bIds.orgId, name: "intruders" }],
    ];
    for (const [actor, session] of Object.entries(actors)) {
      for (const [path, body] of attempts) {
        const response = await session.request(path, { body });
        transcripts.push(response.text);
        expect(response.status, `${actor} ${path}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${actor} ${path}`).toBeLessThan(500);
      }
    }
  });

  it("left B's rows unchanged and leaked none of B's ids or markers", async () => {
    expect(await checksumOf(server, b.org.id)).toBe(checksumBefore);
    const everything = transcripts.join("\n");
    expect(transcripts.length).toBeGreaterThan(200);
    for (const secret of [MARKER, "MarkerError", "markerHandler", bIds.projectId, bIds.issueId, bIds.exceptionId, bIds.keyId, b.project.apiKey]) {
      expect(everything.includes(secret), secret).toBe(false);
    }
  });
});
