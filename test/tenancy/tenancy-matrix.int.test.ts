import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { conversationMessages, conversations } from "../../src/server/db/schema/index";
import { listRoutes, routeKey } from "../../src/server/rest/route-list";
import { API_TOKEN_SCOPES } from "../../src/shared/api-token.inputs";
import { permissionsOfRole, type Permission } from "../../src/shared/permissions";
import { tokenScopes } from "../../src/server/composition/rest-routes";
import { createV1Router } from "../../src/server/composition/v1.router";
import { appRouter } from "../../src/server/composition/trpc.router";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { orgRowsChecksum } from "./org-rows-checksum";
import { issueByType, sendAnalyticsEvent, sendEvent, triageTenant } from "../helpers/triage-seed";
import { lastMail, signUpVerified } from "../helpers/test-users";
import { callProcedure } from "../helpers/typed-trpc";
import { procedureEntries, PROCEDURES, ROUTES, routeUrl, type TenantIds } from "./tenancy-table";

/**
 * Battery E1/E3 across the WHOLE API surface: every tRPC procedure and every /api/v1 route has an
 * entry in tenancy-table.ts (the tests fail otherwise). Organization A's owner, admin and member,
 * an outsider without an organization, and an anonymous caller all try B's ids: every one is refused
 * (NOT_FOUND for signed-in callers, UNAUTHORIZED for anonymous), no answer contains B's ids or
 * marker strings, and a checksum of B's rows is unchanged afterwards.
 */
const MARKER = "tenant-b-marker-5e1f";

/** Whether a built-in role holds a call's grant (any one of a list); absent: any member may call it. */
function grantedTo(role: "admin" | "member", requires: Permission | Permission[] | undefined) {
  const held = permissionsOfRole(role, new Map());
  return requires === undefined || [requires].flat().some((permission) => held.has(permission));
}

/** B's tenant rows, hashed, to prove nothing of B changed. */
const checksumOf = (server: TestServer, orgId: string) =>
  orgRowsChecksum(server, orgId, [
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
    "api_tokens",
    "alert_rules",
    "alert_actions",
    "alert_notifications",
    "conversations",
    "conversation_messages",
    "ai_token_usage",
    "repositories",
  ]);

describe("tenancy matrix over every procedure and route (battery E1, E3)", () => {
  let server: TestServer;
  let b: Awaited<ReturnType<typeof triageTenant>>;
  let bIds: TenantIds;
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
        const { data } = await callProcedure(b.session, "issue.get", { projectId: b.project.id, issueId: issue.id });
        expect(data?.tags.some((tag) => tag.key === "marker")).toBe(true);
      },
      { timeout: 5000, interval: 100 },
    );
    const { data: exceptions } = await callProcedure(b.session, "exception.list", { projectId: b.project.id, issueId: issue.id });
    const { data: project } = await callProcedure(b.session, "project.get", { projectId: b.project.id });
    const conversationId = crypto.randomUUID();
    await server.database.db.insert(conversations).values({
      id: conversationId,
      organizationId: b.org.id,
      projectId: b.project.id,
      ownerUserId: b.userId,
      title: `${MARKER} chat`,
      dateFrom: null,
      dateTo: null,
    });
    await server.database.db
      .insert(conversationMessages)
      .values({ organizationId: b.org.id, conversationId, messageId: "m1", position: 0, role: "user", parts: [{ type: "text", text: MARKER }] });
    const { data: bToken } = await callProcedure(b.session, "apiToken.create", { name: `${MARKER}-token`, scopes: ["event:read"] });
    const { data: rules } = await callProcedure(b.session, "alert.list", { projectId: b.project.id });
    const { data: bRepository } = await callProcedure(b.session, "repository.create", { name: `tenant-b/${MARKER}` });
    bIds = {
      orgId: b.org.id,
      projectId: b.project.id,
      issueId: issue.id,
      exceptionId: exceptions!.items[0].id,
      keyId: project!.keys[0].id,
      apiTokenId: bToken!.token.id,
      repositoryId: bRepository!.id,
      ruleId: rules![0].id,
      conversationId,
    };
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
    for (const [path, entry] of procedureEntries()) {
      for (const [actor, session] of Object.entries(actors)) {
        const result = await callProcedure(session, path, entry.input(bIds));
        transcripts.push(JSON.stringify(result));
        checks += 1;
        const label = `${actor} → ${path}`;
        if (entry.scope === "public") expect(result.error, label).toBeUndefined();
        else if (actor === "anonymous") expect(result.error?.code, label).toBe("UNAUTHORIZED");
        else if (entry.scope === "project" || entry.scope === "conversation" || entry.scope === "caller" || actor === "outsider" || entry.hostedOnly)
          expect(result.error?.code, label).toBe("NOT_FOUND");
        // Organization scope, a member of A: B's ids in the input are ignored; the call acts in A (or the role is refused).
        // Deleting the organization is the owner's alone: admins are refused too.
        else if ((actor === "memberA" || actor === "adminA") && !grantedTo(actor === "memberA" ? "member" : "admin", entry.requires))
          expect(result.error?.code, label).toBe("FORBIDDEN");
        else if (entry.orgRow) expect(result.error?.code, label).toBe("NOT_FOUND");
        else if (entry.ownOrganization) expect(result.error?.code, label).toBe(entry.ownOrganization.error);
        else {
          expect(result.error, label).toBeUndefined();
          if (entry.landedIn) expect(entry.landedIn(result.data!), label).toBe(aOrgId);
        }
      }
    }
    console.log(`tenancy matrix: ${checks} tRPC calls`);
  });

  it("refuses B's ids on every /api/v1 route", async () => {
    const routes = listRoutes(createV1Router(server.services));
    const keys = routes.map(routeKey);
    // Every registered route is covered below; writes need a body entry.
    for (const key of keys) expect(ROUTES, `tenancy entry for ${key}`).toHaveProperty([key]);
    for (const key of keys) if (!key.startsWith("get ") && !ROUTES[key].public) expect(ROUTES[key].body, `body for ${key}`).toBeDefined();
    let checks = 0;
    for (const route of routes) {
      const entry = ROUTES[routeKey(route)];
      if (entry.public) continue;
      const body = entry.body?.(bIds);
      for (const [actor, session] of Object.entries(actors)) {
        // B's organization by its id and by its slug; A's with B's project by its id and by its number.
        const probes = route.path.includes(":orgId")
          ? [
              { orgId: bIds.orgId, ids: bIds, label: "B" },
              { orgId: b.org.slug, ids: bIds, label: "B's slug" },
              ...(route.path.includes(":projectId")
                ? [
                    { orgId: aOrgId, ids: bIds, label: "A, B's project" },
                    { orgId: aOrgId, ids: { ...bIds, projectId: String(b.project.number) }, label: "A, B's project number" },
                  ]
                : []), // A's own organization is allowed
            ]
          : [{ orgId: bIds.orgId, ids: bIds, label: "none" }];
        for (const { orgId, ids, label } of probes) {
          const response = await session.request(routeUrl(route.path, entry, orgId, ids), { method: route.method.toUpperCase(), body });
          transcripts.push(response.text);
          checks += 1;
          const name = `${actor} ${routeKey(route)} org=${label}`;
          if (entry.callerScoped) {
            // The caller's own organizations, never B's: none for the outsider.
            expect(response.status, name).toBe(actor === "anonymous" ? 401 : 200);
            if (actor !== "anonymous")
              expect(
                response.body.map((org: { id: string }) => org.id),
                name,
              ).toEqual(actor === "outsider" ? [] : [aOrgId]);
            continue;
          }
          // A session-scoped route acts in the caller's own organization: A's members get A's data.
          const ownData = entry.sessionScoped && actor !== "outsider";
          expect(response.status, name).toBe(actor === "anonymous" ? 401 : ownData ? 200 : 404);
        }
      }
    }
    console.log(`tenancy matrix: ${checks} REST calls over ${routes.length} routes`);
  });

  it("refuses B's ids to A's API token on every route, whatever its scopes", async () => {
    const { data: created } = await callProcedure(actors.ownerA, "apiToken.create", { name: "matrix", scopes: [...API_TOKEN_SCOPES] });
    const bearer = new HttpSession(server.url, null);
    const headers = { authorization: `Bearer ${created!.secret}` };
    const routes = listRoutes(createV1Router(server.services));
    // A route opened to tokens must be one the v1 router serves (the payment webhook, mounted ahead of it, names no scope).
    const scopes = tokenScopes();
    for (const key of Object.keys(scopes)) expect(routes.map(routeKey), `token scope of ${key}`).toContain(key);
    let checks = 0;
    for (const route of routes) {
      const entry = ROUTES[routeKey(route)];
      if (entry.public) continue;
      const tokenRoute = routeKey(route) in scopes;
      for (const orgId of [bIds.orgId, b.org.slug, aOrgId]) {
        if (!route.path.includes(":projectId") && orgId === aOrgId && tokenRoute) continue; // A's own org list is allowed
        const response = await bearer.request(routeUrl(route.path, entry, orgId, bIds), {
          method: route.method.toUpperCase(),
          body: entry.body?.(bIds),
          headers,
        });
        transcripts.push(response.text);
        checks += 1;
        // Routes closed to tokens refuse them before looking at any id (403; the session-only chat stream
        // answers 401 as to anyone without a session); the others answer B's ids as missing.
        const label = `token ${routeKey(route)} org=${orgId === aOrgId ? "A" : orgId === b.org.slug ? "B's slug" : "B"}`;
        if (entry.callerScoped) {
          // The token's own organization only.
          expect(response.status, label).toBe(200);
          expect(
            response.body.map((org: { id: string }) => org.id),
            label,
          ).toEqual([aOrgId]);
        } else if (tokenRoute) expect(response.status, label).toBe(404);
        else expect([401, 403], label).toContain(response.status);
      }
    }
    console.log(`tenancy matrix: ${checks} REST calls with an API token`);

    // The same token on the MCP endpoint: every tool, given B's project and rows, is an error.
    const client = new Client({ name: "tenancy-matrix", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/api/mcp", server.url), { requestInit: { headers } }));
    try {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        if (tool.name === "listProjects") continue;
        const result = (await client.callTool({
          name: tool.name,
          arguments: { projectId: bIds.projectId, issueId: bIds.issueId, exceptionId: bIds.exceptionId },
        })) as {
          isError?: boolean;
        };
        transcripts.push(JSON.stringify(result));
        expect(result.isError, `mcp ${tool.name}`).toBe(true);
      }
      const own = await client.callTool({ name: "listProjects", arguments: {} });
      transcripts.push(JSON.stringify(own));
    } finally {
      await client.close();
    }
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
      // Organization roles (issue 14, item 10).
      ["/api/auth/organization/create-role", { organizationId: bIds.orgId, role: "intruder", permission: { member: ["delete"] } }],
      [`/api/auth/organization/list-roles?organizationId=${bIds.orgId}`, undefined],
      ["/api/auth/organization/delete-role", { organizationId: bIds.orgId, roleName: "intruder" }],
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
    for (const secret of [
      MARKER,
      bIds.orgId,
      b.org.slug,
      "MarkerError",
      "markerHandler",
      bIds.projectId,
      bIds.issueId,
      bIds.exceptionId,
      bIds.keyId,
      bIds.conversationId,
      bIds.ruleId,
      b.project.apiKey,
    ]) {
      expect(everything.includes(secret), secret).toBe(false);
    }
  });
});
