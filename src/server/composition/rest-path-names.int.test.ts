import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession, type HttpResponse } from "../../../test/helpers/http-session";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createOrganization, signUpVerified } from "../../../test/helpers/test-users";
import { issueByType, sendEvent, triageTenant } from "../../../test/helpers/triage-seed";

/**
 * Issue 37, item 3 — the REST API's front door: `GET /organizations` tells a caller the ids and
 * slugs, every `{orgId}` takes the organization's id or slug, and every `{projectId}` the
 * project's id, number or slug, always within the caller's own organizations.
 */
describe("/api/v1 paths by id or by name", () => {
  let server: TestServer;
  let a: Awaited<ReturnType<typeof triageTenant>>;
  let b: Awaited<ReturnType<typeof triageTenant>>;
  let aSlug: string;
  let aIssueId: string;
  let second: { id: string; slug: string; name: string };
  /** A GET with a new API token of A's organization holding these scopes. */
  let tokenOf: (scopes: string[]) => Promise<(path: string) => Promise<HttpResponse<any>>>;

  beforeAll(async () => {
    server = await startTestServer();
    a = await triageTenant(server, "Names A");
    b = await triageTenant(server, "Names B");
    const { data: project } = await a.session.query("project.get", { projectId: a.project.id });
    aSlug = project.slug;
    await sendEvent(server, a.project, { type: "NamedError", value: "by name", fn: "handler" });
    aIssueId = (await issueByType(a.session, a.project.id, "NamedError")).id;
    // A second organization of A's owner, made active last: a path's organization wins over the active one.
    second = await createOrganization(a.session, "Names A two");
    tokenOf = async (scopes) => {
      await a.session.request("/api/auth/organization/set-active", { body: { organizationId: a.org.id } });
      const created = await a.session.mutation("apiToken.create", { name: `names ${scopes.join(" ")}`, scopes });
      expect(created.error).toBeUndefined();
      await a.session.request("/api/auth/organization/set-active", { body: { organizationId: second.id } });
      const bearer = new HttpSession(server.url, null);
      return (path) => bearer.request(path, { headers: { authorization: `Bearer ${created.data.secret}` } });
    };
  }, 60_000);
  afterAll(() => server.close());

  it("lists a signed-in caller's organizations with their role, and an anonymous caller gets 401", async () => {
    const listed = await a.session.request("/api/v1/organizations");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual([
      { id: a.org.id, slug: a.org.slug, name: "Names A", role: "owner", createdAt: expect.any(String) },
      { id: second.id, slug: second.slug, name: "Names A two", role: "owner", createdAt: expect.any(String) },
    ]);
    const { session: loner } = await signUpVerified(server);
    expect((await loner.request("/api/v1/organizations")).body).toEqual([]);
    expect((await new HttpSession(server.url).request("/api/v1/organizations")).status).toBe(401);
  });

  it("gives an API token its own organization only, whatever its scopes", async () => {
    const token = await tokenOf(["event:read"]);
    const listed = await token("/api/v1/organizations");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual([{ id: a.org.id, slug: a.org.slug, name: "Names A", role: "owner", createdAt: expect.any(String) }]);
    for (const ref of [a.org.id, a.org.slug]) {
      const one = await token(`/api/v1/organizations/${ref}`);
      expect(one.status, one.text).toBe(200);
      expect(one.body).toMatchObject({ id: a.org.id, slug: a.org.slug });
    }
    // The owner's other organization and a stranger's: as missing as a name nobody holds.
    const missing = await token("/api/v1/organizations/no-such-organization");
    expect(missing.status).toBe(404);
    for (const ref of [second.id, second.slug, b.org.id, b.org.slug]) {
      const refused = await token(`/api/v1/organizations/${ref}`);
      expect({ status: refused.status, error: refused.body.error.code, message: refused.body.error.message }, ref).toEqual({
        status: 404,
        error: "NOT_FOUND",
        message: missing.body.error.message,
      });
    }
  });

  it("answers the same for an organization's slug as for its id, on the organization, project, issue and write routes", async () => {
    for (const org of [a.org.id, a.org.slug]) {
      const one = await a.session.request(`/api/v1/organizations/${org}`);
      expect(one.body).toEqual({ id: a.org.id, slug: a.org.slug, name: "Names A", role: "owner", createdAt: expect.any(String) });
      const projects = await a.session.request(`/api/v1/organizations/${org}/projects`);
      expect(projects.body.map((project: { id: string }) => project.id)).toEqual([a.project.id]);
      for (const project of [a.project.id, String(a.project.number), aSlug]) {
        const base = `/api/v1/organizations/${org}/projects/${project}`;
        const got = await a.session.request(base);
        expect(got.status, `${base}: ${got.text}`).toBe(200);
        expect(got.body.id).toBe(a.project.id);
        const issues = await a.session.request(`${base}/issues`);
        expect(
          issues.body.items.map((issue: { id: string }) => issue.id),
          base,
        ).toEqual([aIssueId]);
        const issue = await a.session.request(`${base}/issues/${aIssueId}`);
        expect(issue.body.projectId, base).toBe(a.project.id);
      }
    }
    const written = await a.session.request(`/api/v1/organizations/${a.org.slug}/projects/${aSlug}/issues/${aIssueId}/severity`, {
      method: "PUT",
      body: { severity: "LOW" },
    });
    expect(written.status, written.text).toBe(200);
    expect(written.body).toMatchObject({ id: aIssueId, severity: "LOW" });
    // Created in the organization the slug names, not in the session's active one.
    const created = await a.session.request(`/api/v1/organizations/${a.org.slug}/projects`, { method: "POST", body: { name: "By slug", platform: "NODE_JS" } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.organizationId).toBe(a.org.id);
  });

  it("takes names with an API token as with a session", async () => {
    const token = await tokenOf(["project:read", "event:read"]);
    const got = await token(`/api/v1/organizations/${a.org.slug}/projects/${a.project.number}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body.id).toBe(a.project.id);
    const issues = await token(`/api/v1/organizations/${a.org.slug}/projects/${aSlug}/issues`);
    expect(issues.body.items.map((issue: { id: string }) => issue.id)).toEqual([aIssueId]);
    // B's slug under B's path, B's project by number under A's slug: as missing as unknown ids.
    expect((await token(`/api/v1/organizations/${b.org.slug}/projects`)).status).toBe(404);
    expect((await token(`/api/v1/organizations/${a.org.slug}/projects/${b.project.number}`)).status).toBe(404);
  });

  it("answers another organization's slug, and its project's number or slug, exactly as an unknown id", async () => {
    const { data: bProject } = await b.session.query("project.get", { projectId: b.project.id });
    const unknownOrg = await a.session.request(`/api/v1/organizations/${crypto.randomUUID()}/projects`);
    expect(unknownOrg.status).toBe(404);
    for (const org of [b.org.id, b.org.slug, "no-such-organization"]) {
      const refused = await a.session.request(`/api/v1/organizations/${org}/projects`);
      expect(refused.body.error, org).toEqual({ ...unknownOrg.body.error, requestId: expect.any(String) });
      expect((await a.session.request(`/api/v1/organizations/${org}`)).status, org).toBe(404);
    }
    const unknownProject = await a.session.request(`/api/v1/organizations/${a.org.id}/projects/${crypto.randomUUID()}/issues`);
    expect(unknownProject.status).toBe(404);
    // B's project under A's organization, by id, by number and by slug (A has no project of that slug).
    expect(bProject.slug).not.toBe(aSlug);
    for (const project of [b.project.id, String(b.project.number), bProject.slug, "999999999", "1234567890123"]) {
      const refused = await a.session.request(`/api/v1/organizations/${a.org.slug}/projects/${project}/issues`);
      expect(refused.body.error, project).toEqual({ ...unknownProject.body.error, requestId: expect.any(String) });
    }
    // B's project under B's slug, by A's session: the organization is refused first, as with ids.
    const both = await a.session.request(`/api/v1/organizations/${b.org.slug}/projects/${bProject.slug}`);
    expect(both.body.error).toEqual({ ...unknownOrg.body.error, requestId: expect.any(String) });
    // A value that is no id, number or slug is refused by the input, as before names were taken.
    const malformed = await a.session.request(`/api/v1/organizations/${a.org.id}/projects/Not%20A%20Slug`);
    expect(malformed.status).toBe(400);
  });
});
