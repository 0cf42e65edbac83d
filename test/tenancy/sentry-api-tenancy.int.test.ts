/**
 * Issue 33: the Sentry tool API (/api/0) in the tenancy and role matrices. Every route the /api/0
 * router registers has an entry in sentry-api-table.ts (the first test fails otherwise). Two
 * organizations, A and B, each with an owner, a project, a release and an assembled bundle
 * uploaded through the real chunk-upload and assemble calls, and API tokens of several scopes.
 * Every route is then called without a token, with a malformed and a revoked one, across
 * organizations both ways, with another organization's project, release and body references,
 * with tokens lacking the route's scope, and with tokens whose creator's role lacks its grant.
 * B's rows must be unchanged afterwards, and no answer may carry B's names.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listRoutes, routeKey, type RegisteredRoute } from "../../src/server/rest/route-list";
import { sentryApiRoutes } from "../../src/server/sentry-api/sentry-api.routes";
import { API_TOKEN_SCOPES, type ApiTokenScope } from "../../src/shared/api-token.inputs";
import { ALL_PERMISSIONS, PERMISSION_REFUSALS, permissionMapOf, permissionsOfRole, type Permission } from "../../src/shared/permissions";
import { addMember, orgPost } from "../auth/org-kit";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { orgRowsChecksum } from "./org-rows-checksum";
import { createOrganization, signUpVerified } from "../helpers/test-users";
import { writeBundle } from "../helpers/zip-writer";
import { chunkForm, SENTRY_API_ROUTES, sentryApiUrl, type SentryApiEntry, type SentryTenant } from "./sentry-api-table";

const MARKER = "sentry-b-marker-7c2d";
const NOT_FOUND = { detail: "The requested resource does not exist" };
const PROBE_ROLE = "release-probe";

interface Answer {
  status: number;
  text: string;
  body: { detail?: string } & Record<string, unknown>;
}

/** B's rows of everything the Sentry tool API reads or writes, hashed (api_tokens aside: using a token stamps its last use). */
const checksumOf = (server: TestServer, orgId: string) =>
  orgRowsChecksum(server, orgId, [
    "organizations",
    "projects",
    "releases",
    "release_projects",
    "release_commits",
    "deploys",
    "repositories",
    "artifact_chunks",
    "artifact_blobs",
    "artifact_assemblies",
    "artifact_bundles",
    "artifact_bundle_files",
    "source_map_waits",
    "source_map_index_parts",
  ]);

describe("the Sentry tool API (/api/0) in the tenancy and role matrices (issue 33)", () => {
  let server: TestServer;
  let routes: RegisteredRoute[];
  let a: SentryTenant & { orgId: string; owner: HttpSession; tokens: Record<"releases" | "read" | "events" | "revoked", string> };
  let b: SentryTenant & { orgId: string; projectId: string; userId: string; token: string };
  let demotedToken: string;
  let probeToken: string;
  let checksumBefore: string;
  const transcripts: string[] = [];
  let calls = 0;

  /** One call; its answer joins the transcripts checked for B's names unless it is B's own (`record: false`). */
  async function call(method: string, url: string, token: string | null, body?: unknown, record = true): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (typeof body === "string") {
      payload = body; // raw, as sent: a malformed JSON body
      headers["content-type"] = "application/json";
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers["content-type"] = "application/json";
    }
    const response = await fetch(new URL(url, server.url), { method: method.toUpperCase(), headers, body: payload });
    const text = await response.text();
    if (record) transcripts.push(text);
    calls += 1;
    let parsed: Answer["body"] = {};
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the status and text tell
    }
    return { status: response.status, text, body: parsed };
  }

  /** Calls a route as A's tenant names it, with some names replaced; the body is the entry's own unless given. */
  async function callRoute(route: RegisteredRoute, token: string | null, names: Parameters<typeof sentryApiUrl>[2] = {}, body?: unknown) {
    const doomed = entryOf(route).doomedRelease?.(a);
    // A delete names a release of its own, made again (an upsert) before each call so a permitted one finds it.
    if (doomed) {
      const made = await call("post", `/api/0/organizations/${a.orgSlug}/releases/`, a.tokens.releases, { version: doomed, projects: [a.projectSlug] }, false);
      expect([201, 208], made.text).toContain(made.status);
    }
    return call(route.method, sentryApiUrl(route.path, a, { version: doomed, ...names }), token, body ?? entryOf(route).body?.(a));
  }

  const entryOf = (route: RegisteredRoute): SentryApiEntry => SENTRY_API_ROUTES[routeKey(route)];
  const label = (route: RegisteredRoute, what: string) => `${what}: ${routeKey(route)}`;

  async function createToken(session: HttpSession, scopes: readonly ApiTokenScope[]) {
    const created = await session.mutation("apiToken.create", { name: `matrix ${scopes.length === 1 ? scopes[0] : "all scopes"}`, scopes });
    expect(created.error, created.error?.message).toBeUndefined();
    return { id: created.data.token.id as string, secret: created.data.secret as string };
  }

  /** A bundle uploaded as sentry-cli uploads it: assemble (missing chunk), the chunk, assemble again until `ok`. */
  async function uploadBundle(tenant: Omit<SentryTenant, "bundleChecksum">, token: string, content: string) {
    const bundle = writeBundle([{ path: "files/_/_/app.js", type: "source", url: "~/app.js", data: content }]);
    const checksum = createHash("sha1").update(bundle).digest("hex");
    const body = { checksum, chunks: [checksum], projects: [tenant.projectSlug], version: tenant.release };
    const assembleUrl = `/api/0/organizations/${tenant.orgSlug}/artifactbundle/assemble/`;
    const first = await call("post", assembleUrl, token, body, false);
    expect(first.body, first.text).toEqual({ state: "not_found", missingChunks: [checksum], detail: null });
    const chunk = await call("post", `/api/0/organizations/${tenant.orgSlug}/chunk-upload/`, token, chunkForm(bundle), false);
    expect(chunk.status, chunk.text).toBe(200);
    await vi.waitFor(
      async () => {
        const answer = await call("post", assembleUrl, token, body, false);
        expect(answer.body.state, answer.text).toBe("ok");
      },
      { timeout: 30_000, interval: 200 },
    );
    return checksum;
  }

  async function tenant(name: string, projectName: string, release: string) {
    const owner = await signUpVerified(server, { name: `${name} Owner` });
    const org = await createOrganization(owner.session, name);
    const created = await owner.session.mutation("project.create", { name: projectName, platform: "REACT" });
    expect(created.error, created.error?.message).toBeUndefined();
    const names = { orgSlug: org.slug, projectSlug: created.data.slug as string, projectNumber: created.data.number as number, release };
    const upload = await createToken(owner.session, ["project:releases"]);
    const bundleChecksum = await uploadBundle(names, upload.secret, `// ${name}: ${release}`);
    return { ...names, bundleChecksum, orgId: org.id, projectId: created.data.id as string, owner, upload };
  }

  async function setProbeGrants(permissions: readonly Permission[]) {
    const updated = await orgPost(a.owner, "update-role", {
      organizationId: a.orgId,
      roleName: PROBE_ROLE,
      data: { permission: permissionMapOf(permissions) },
    });
    expect(updated.status, updated.text).toBe(200);
  }

  beforeAll(async () => {
    server = await startTestServer();
    routes = listRoutes(sentryApiRoutes(server.services));

    const tenantB = await tenant(`Tenant B ${MARKER}`, "Billing Portal", `${MARKER}-2.0.0`);
    b = { ...tenantB, userId: tenantB.owner.userId, token: (await createToken(tenantB.owner.session, API_TOKEN_SCOPES)).secret };

    const tenantA = await tenant("Tenant A", "Web Shop", "a-1.0.0");
    const revoked = await createToken(tenantA.owner.session, API_TOKEN_SCOPES);
    expect((await tenantA.owner.session.mutation("apiToken.revoke", { tokenId: revoked.id })).error).toBeUndefined();
    a = {
      ...tenantA,
      owner: tenantA.owner.session,
      tokens: {
        releases: tenantA.upload.secret,
        read: (await createToken(tenantA.owner.session, ["project:read"])).secret,
        events: (await createToken(tenantA.owner.session, ["event:read"])).secret,
        revoked: revoked.secret,
      },
    };

    // A token made by an admin who is then made a member: it acts with the member role from then on.
    const admin = await addMember(server, a.owner, a.orgId, "admin");
    demotedToken = (await createToken(admin.session, API_TOKEN_SCOPES)).secret;
    const demoted = await orgPost(a.owner, "update-member-role", { organizationId: a.orgId, memberId: admin.memberId, role: "member" });
    expect(demoted.status, demoted.text).toBe(200);

    // A custom role that may create tokens; its grants are changed per route below.
    const role = await orgPost(a.owner, "create-role", { organizationId: a.orgId, role: PROBE_ROLE, permission: permissionMapOf(["apiToken:create"]) });
    expect(role.status, role.text).toBe(200);
    const probe = await addMember(server, a.owner, a.orgId, PROBE_ROLE);
    probeToken = (await createToken(probe.session, API_TOKEN_SCOPES)).secret;

    checksumBefore = await checksumOf(server, b.orgId);
  }, 180_000);
  afterAll(() => server?.close());

  it("has an entry for every route the /api/0 router registers, and none for a route that is gone", () => {
    const keys = routes.map(routeKey);
    expect(keys.length).toBeGreaterThanOrEqual(14);
    expect(
      keys.filter((key) => !(key in SENTRY_API_ROUTES)),
      "routes without an entry",
    ).toEqual([]);
    expect(Object.keys(SENTRY_API_ROUTES).sort()).toEqual([...keys].sort());
    for (const route of routes) {
      const entry = entryOf(route);
      expect(entry.scope, label(route, "scope")).toBe(route.path.includes(":project") ? "project" : route.path.includes(":org") ? "organization" : "token");
      if (route.method !== "get") expect(entry.body, label(route, "body")).toBeTypeOf("function");
    }
  });

  it("answers 401 {detail} on every route without a token, with a malformed token and with a revoked one", async () => {
    const wellFormedUnknown = `flt_${"x".repeat(40)}`;
    for (const route of routes) {
      for (const [token, detail] of [
        [null, "Authentication credentials were not provided."],
        ["not-a-token", "Invalid token"],
        [wellFormedUnknown, "Invalid token"],
        [a.tokens.revoked, "Invalid token"],
      ] as const) {
        const answer = await callRoute(route, token);
        expect(answer.status, label(route, `token ${token}`)).toBe(401);
        expect(answer.body, label(route, `token ${token}`)).toEqual({ detail });
      }
    }
  });

  it("authenticates and finds the organization before reading a body: a malformed one answers 401 without a token, 404 on B's slug", async () => {
    const jsonWrites = routes.filter((route) => route.method !== "get" && !(entryOf(route).body?.(a) instanceof FormData));
    expect(jsonWrites.length).toBeGreaterThanOrEqual(5);
    for (const route of jsonWrites) {
      const anonymous = await callRoute(route, null, {}, "{not json");
      expect(anonymous.status, label(route, "no token, malformed body")).toBe(401);
      const foreign = await callRoute(route, b.token, {}, "{not json");
      expect(foreign.status, label(route, "B's token on A's slug, malformed body")).toBe(404);
      expect(foreign.body).toEqual(NOT_FOUND);
      const own = await callRoute(route, a.tokens.releases, {}, "{not json");
      expect(own.status, label(route, "A's token, malformed body")).toBe(400);
      expect(own.body).toEqual({ detail: "Malformed JSON body" });
    }
  });

  it("answers another organization's slug exactly as an unknown one (404), both ways", async () => {
    for (const route of routes) {
      const entry = entryOf(route);
      if (entry.scope === "token") {
        // Names no organization: a token is answered about itself only (B's own answer, not recorded).
        const own = await call(route.method, sentryApiUrl(route.path, a), b.token, undefined, false);
        expect(own.status).toBe(200);
        expect(own.body.user).toEqual({ id: b.userId });
        continue;
      }
      const unknown = await callRoute(route, a.tokens.releases, { org: "no-such-organization" });
      expect(unknown.status, label(route, "unknown slug")).toBe(404);
      expect(unknown.body, label(route, "unknown slug")).toEqual(NOT_FOUND);
      const bToA = await callRoute(route, b.token);
      expect(bToA.status, label(route, "B's token on A's slug")).toBe(404);
      expect(bToA.text, label(route, "B's token on A's slug")).toBe(unknown.text);
      const aToB = await callRoute(route, a.tokens.releases, { org: b.orgSlug, project: b.projectSlug, version: b.release }, entry.body?.(b));
      expect(aToB.status, label(route, "A's token on B's slug")).toBe(404);
      expect(aToB.text, label(route, "A's token on B's slug")).toBe(unknown.text);
    }
  });

  it("answers another organization's project, by slug and by number, as an unknown project (404); A's own by either is served", async () => {
    const projectRoutes = routes.filter((route) => entryOf(route).scope === "project");
    expect(projectRoutes.length).toBeGreaterThanOrEqual(4);
    for (const route of projectRoutes) {
      const unknown = await callRoute(route, a.tokens.releases, { project: "no-such-project" });
      expect(unknown.status, label(route, "unknown project")).toBe(404);
      expect(unknown.body, label(route, "unknown project")).toEqual(NOT_FOUND);
      for (const project of [b.projectSlug, b.projectNumber]) {
        const foreign = await callRoute(route, a.tokens.releases, { project });
        expect(foreign.status, label(route, `B's project ${project}`)).toBe(404);
        expect(foreign.text, label(route, `B's project ${project}`)).toBe(unknown.text);
      }
      // B's token in its own organization, naming A's project: missing too.
      for (const project of [a.projectSlug, a.projectNumber]) {
        const foreign = await callRoute(route, b.token, { org: b.orgSlug, project, version: b.release }, entryOf(route).body?.(b));
        expect(foreign.status, label(route, `B's token, A's project ${project}`)).toBe(404);
        expect(foreign.text).toBe(unknown.text);
      }
      for (const project of [a.projectSlug, a.projectNumber]) {
        const own = await callRoute(route, a.tokens.releases, { project });
        expect(entryOf(route).ok, label(route, `A's project ${project}: ${own.text}`)).toContain(own.status);
      }
    }
  });

  it("answers another organization's release as an unknown one (404), and refuses its projects named in a body (400)", async () => {
    for (const route of routes.filter((route) => route.path.includes(":version"))) {
      const unknown = await callRoute(route, a.tokens.releases, { version: "no-such-version" });
      expect(unknown.status, label(route, "unknown release")).toBe(404);
      const foreign = await callRoute(route, a.tokens.releases, { version: b.release });
      expect(foreign.status, label(route, "B's release")).toBe(404);
      expect(foreign.text, label(route, "B's release")).toBe(unknown.text);
    }
    let bodies = 0;
    for (const route of routes) {
      const entry = entryOf(route);
      if (!entry.projectsInBody) continue;
      for (const project of [b.projectSlug, b.projectNumber]) {
        const answer = await callRoute(route, a.tokens.releases, {}, entry.projectsInBody(a, project));
        expect(answer.status, label(route, `B's project ${project} in the body`)).toBe(400);
        expect(answer.body).toEqual({ detail: `Invalid project: ${project}` });
      }
      bodies += 1;
    }
    expect(bodies).toBeGreaterThanOrEqual(3);
  });

  it("refuses a token lacking the route's scope (403) and serves the tokens holding it", async () => {
    const tokens: [string, ApiTokenScope][] = [
      [a.tokens.releases, "project:releases"],
      [a.tokens.read, "project:read"],
      [a.tokens.events, "event:read"],
    ];
    let refusals = 0;
    for (const route of routes) {
      const entry = entryOf(route);
      for (const [token, scope] of tokens) {
        const answer = await callRoute(route, token);
        if (!entry.scopes || entry.scopes.includes(scope)) {
          expect(entry.ok, label(route, `${scope} token: ${answer.text}`)).toContain(answer.status);
        } else {
          refusals += 1;
          expect(answer.status, label(route, `${scope} token`)).toBe(403);
          expect(answer.body).toEqual({ detail: `This API token lacks the ${entry.scopes[0]} scope` });
        }
      }
    }
    // Every write refuses the read-only token.
    expect(refusals).toBeGreaterThanOrEqual(routes.filter((route) => route.method !== "get").length);
  });

  it("refuses writes to a token whose creator's role lacks release:manage (403) and serves reads as the table says", async () => {
    const memberHolds = permissionsOfRole("member", new Map());
    let refusals = 0;
    for (const route of routes) {
      const entry = entryOf(route);
      const answer = await callRoute(route, demotedToken);
      if (entry.requires && !memberHolds.has(entry.requires)) {
        refusals += 1;
        expect(answer.status, label(route, "demoted admin's token")).toBe(403);
        expect(answer.body).toEqual({ detail: PERMISSION_REFUSALS[entry.requires] });
      } else expect(entry.ok, label(route, `demoted admin's token: ${answer.text}`)).toContain(answer.status);
    }
    expect(refusals).toBe(routes.filter((route) => route.method !== "get").length);

    // A custom role: everything but the route's grant is refused, exactly the grant (or nothing, for a route needing none) is served.
    for (const route of routes) {
      const entry = entryOf(route);
      if (entry.requires) {
        await setProbeGrants(ALL_PERMISSIONS.filter((permission) => permission !== entry.requires));
        const refused = await callRoute(route, probeToken);
        expect(refused.status, label(route, `all but ${entry.requires}`)).toBe(403);
        expect(refused.body).toEqual({ detail: PERMISSION_REFUSALS[entry.requires] });
      }
      await setProbeGrants(entry.requires ? [entry.requires] : []);
      const allowed = await callRoute(route, probeToken);
      expect(entry.ok, label(route, `only ${entry.requires ?? "nothing"}: ${allowed.text}`)).toContain(allowed.status);
    }
  });

  it("left B's rows unchanged and leaked none of B's names", async () => {
    expect(await checksumOf(server, b.orgId)).toBe(checksumBefore);
    // A's writes landed in A: its release is there, B's organization has only its own.
    const own = await call("get", `/api/0/organizations/${a.orgSlug}/releases/`, a.tokens.read);
    // (and the releases the delete routes name, made in A before each of their calls).
    const versions = (own.body as unknown as { version: string }[]).map((release) => release.version);
    expect(versions.filter((version) => version !== `${a.release}-doomed`)).toEqual([a.release]);
    expect(transcripts.length).toBeGreaterThan(200);
    const everything = transcripts.join("\n");
    for (const secret of [MARKER, b.orgId, b.projectId, b.userId, b.bundleChecksum]) expect(everything.includes(secret), secret).toBe(false);
    console.log(`sentry api matrix: ${calls} calls over ${routes.length} routes`);
  });
});
