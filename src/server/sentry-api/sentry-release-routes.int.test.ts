import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createTriageProject, issueByType, sendEvent, type TriageProject } from "../../../test/helpers/triage-seed";
import { createOrganization, signUpVerified } from "../../../test/helpers/test-users";
import { RELEASE_REFERENCED } from "./sentry-releases";

const NOT_FOUND = { detail: "The requested resource does not exist" };

describe("Sentry tool API releases, commits, deploys and repositories: errors and answers (issue 34)", () => {
  let server: TestServer;
  let org: { id: string; slug: string };
  let project: TriageProject & { slug: string };
  let session: Awaited<ReturnType<typeof signUpVerified>>["session"];
  const tokens = { releases: "", read: "", events: "" };
  let foreign: { slug: string; token: string; release: string };

  beforeAll(async () => {
    server = await startTestServer();
    ({ session } = await signUpVerified(server));
    org = await createOrganization(session, "Release Routes");
    const triage = await createTriageProject(session, "Checkout");
    project = { ...triage, slug: (await session.query("project.get", { projectId: triage.id })).data.slug };
    for (const [key, scope] of [
      ["releases", "project:releases"],
      ["read", "project:read"],
      ["events", "event:read"],
    ] as const) {
      tokens[key] = (await session.mutation("apiToken.create", { name: key, scopes: [scope] })).data.secret;
    }
    const stranger = await signUpVerified(server);
    const strangerOrg = await createOrganization(stranger.session, "Release Strangers");
    await stranger.session.mutation("project.create", { name: "Checkout", platform: "NODE_JS" });
    foreign = {
      slug: strangerOrg.slug,
      token: (await stranger.session.mutation("apiToken.create", { name: "ci", scopes: ["project:releases"] })).data.secret,
      release: "stranger-1.0.0",
    };
    const made = await call("POST", `/organizations/${foreign.slug}/releases/`, { version: foreign.release, projects: ["checkout"] }, foreign.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  });
  afterAll(() => server?.close());

  async function call(method: string, pathname: string, body?: unknown, token = tokens.releases) {
    const response = await fetch(`${server.url}/api/0${pathname}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }
  const newRelease = (version: string) => call("POST", `/organizations/${org.slug}/releases/`, { version, projects: [project.slug] });

  it("answers an unknown organization, project or version 404 with Sentry's detail, and another organization's exactly the same", async () => {
    await newRelease("2.0.0");
    const byOrg = (slug: string) => [
      ["GET", `/organizations/${slug}/releases/2.0.0/`],
      ["GET", `/organizations/${slug}/releases/2.0.0/commits/`],
      ["GET", `/organizations/${slug}/releases/2.0.0/deploys/`],
      ["POST", `/organizations/${slug}/releases/2.0.0/deploys/`, { environment: "production" }],
      ["DELETE", `/organizations/${slug}/releases/2.0.0/`],
      ["GET", `/organizations/${slug}/repos/`],
    ];
    for (const [[method, unknownPath, body], [, foreignPath]] of byOrg("no-such-org").map((entry, i) => [entry, byOrg(foreign.slug)[i]])) {
      const unknown = await call(method as string, unknownPath as string, body);
      const theirs = await call(method as string, foreignPath as string, body);
      expect([unknown.status, theirs.status], `${method} ${foreignPath}`).toEqual([404, 404]);
      expect(unknown.body).toEqual(NOT_FOUND);
      expect(theirs.body).toEqual(unknown.body);
    }
    for (const pathname of [
      `/organizations/${org.slug}/releases/9.9.9/`,
      `/organizations/${org.slug}/releases/9.9.9/commits/`,
      `/organizations/${org.slug}/releases/9.9.9/deploys/`,
      `/organizations/${org.slug}/releases/9.9.9/previous-with-commits/`,
      `/organizations/${org.slug}/releases/${foreign.release}/`,
      `/projects/${org.slug}/no-such-project/releases/`,
      `/projects/${org.slug}/${project.slug}/releases/9.9.9/commits/`,
    ]) {
      const answer = await call("GET", pathname);
      expect(answer.status, pathname).toBe(404);
      expect(answer.body).toEqual(NOT_FOUND);
    }
    expect(await call("DELETE", `/organizations/${org.slug}/releases/${foreign.release}/`)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await call("POST", `/organizations/${org.slug}/releases/9.9.9/deploys/`, { environment: "production" })).toEqual({ status: 404, body: NOT_FOUND });
  });

  it("refuses a token without the scope (403): event:read reads nothing, project:read writes nothing", async () => {
    const read = await call("GET", `/organizations/${org.slug}/releases/2.0.0/commits/`, undefined, tokens.events);
    expect(read).toEqual({ status: 403, body: { detail: "This API token lacks the project:releases scope" } });
    expect((await call("GET", `/organizations/${org.slug}/releases/2.0.0/deploys/`, undefined, tokens.read)).status).toBe(200);
    for (const [method, pathname, body] of [
      ["DELETE", `/organizations/${org.slug}/releases/2.0.0/`, undefined],
      ["PUT", `/organizations/${org.slug}/releases/2.0.0/`, { status: "archived" }],
      ["POST", `/organizations/${org.slug}/releases/2.0.0/deploys/`, { environment: "production" }],
      ["POST", `/organizations/${org.slug}/repos/`, { name: "acme/checkout" }],
    ] as const) {
      const answer = await call(method, pathname, body, tokens.read);
      expect(answer, `${method} ${pathname}`).toEqual({ status: 403, body: { detail: "This API token lacks the project:releases scope" } });
    }
    expect((await call("GET", `/organizations/${org.slug}/releases/2.0.0/`)).body.status).toBe("open");
  });

  it("refuses a bad version, a deploy without environment, an unknown status and refs to an unregistered repository (400 with a detail)", async () => {
    for (const version of ["latest", "a/b", "..", " padded", ""]) {
      const answer = await call("POST", `/organizations/${org.slug}/releases/`, { version, projects: [project.slug] });
      expect(answer.status, version).toBe(400);
      expect(answer.body.detail, version).toMatch(/^version: /);
    }
    const noEnvironment = await call("POST", `/organizations/${org.slug}/releases/2.0.0/deploys/`, { name: "no env" });
    expect(noEnvironment).toEqual({ status: 400, body: { detail: "environment: environment is required" } });
    expect((await call("POST", `/organizations/${org.slug}/releases/2.0.0/deploys/`, { environment: "" })).status).toBe(400);
    expect((await call("PUT", `/organizations/${org.slug}/releases/2.0.0/`, { status: "deleted" })).status).toBe(400);
    const refs = await call("PUT", `/organizations/${org.slug}/releases/2.0.0/`, { refs: [{ repository: "nope/nope", commit: "a".repeat(40) }] });
    expect(refs).toEqual({ status: 400, body: { detail: "Invalid repository names: nope/nope" } });
    // A new release without projects is refused; the archive call re-posts an existing one with none.
    expect(await call("POST", `/organizations/${org.slug}/releases/`, { version: "2.0.1", projects: [] })).toEqual({
      status: 400,
      body: { detail: "At least one project is required" },
    });
    expect((await call("GET", `/organizations/${org.slug}/deploys/`)).status).toBe(404);
  });

  it("registers repositories (409 for a taken name), lists them in Sentry's shape, and stores commits, deploys and the release view", async () => {
    const created = await call("POST", `/organizations/${org.slug}/repos/`, {
      name: "acme/checkout",
      provider: "github",
      url: "https://github.com/acme/checkout",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "acme/checkout", url: "https://github.com/acme/checkout", provider: { id: "github" }, status: "active" });
    expect(await call("POST", `/organizations/${org.slug}/repos/`, { name: "acme/checkout" })).toEqual({
      status: 409,
      body: { detail: "A repository named acme/checkout already exists" },
    });
    expect((await call("POST", `/organizations/${org.slug}/repos/`, { name: "no-slash" })).status).toBe(400);
    const repos = await call("GET", `/organizations/${org.slug}/repos/`, undefined, tokens.read);
    expect(repos.body.map((repo: { name: string }) => repo.name)).toEqual(["acme/checkout"]);

    await newRelease("3.0.0");
    expect((await call("GET", `/organizations/${org.slug}/releases/3.0.0/previous-with-commits/`)).body).toEqual({});
    const put = await call("PUT", `/organizations/${org.slug}/releases/3.0.0/`, {
      ref: "main",
      commits: [
        {
          id: "b".repeat(40),
          repository: "acme/checkout",
          message: "Second",
          author_name: "Grace",
          author_email: "grace@example.com",
          patch_set: [{ path: "a.ts", type: "M" }],
        },
        { id: "a".repeat(40), repository: "acme/checkout", message: "First", author_name: "Ada", author_email: "ada@example.com" },
      ],
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ ref: "main", commitCount: 2, lastCommit: { id: "b".repeat(40), message: "Second" } });
    expect(put.body.authors).toEqual([
      { name: "Grace", email: "grace@example.com" },
      { name: "Ada", email: "ada@example.com" },
    ]);
    await newRelease("3.1.0");
    const previous = await call("GET", `/organizations/${org.slug}/releases/3.1.0/previous-with-commits/`, undefined, tokens.read);
    expect(previous.body).toMatchObject({ version: "3.0.0", lastCommit: { id: "b".repeat(40) } });

    const deploy = await call("POST", `/organizations/${org.slug}/releases/3.0.0/deploys/`, {
      environment: "staging",
      name: "first",
      dateStarted: "2026-01-01T10:00:00Z",
      dateFinished: "2026-01-01T10:05:00Z",
    });
    expect(deploy).toMatchObject({ status: 201, body: { environment: "staging", name: "first", dateStarted: "2026-01-01T10:00:00.000Z" } });
    const listed = await call("GET", `/organizations/${org.slug}/releases/3.0.0/deploys/`, undefined, tokens.read);
    expect(listed.body).toEqual([deploy.body]);
    expect((await call("GET", `/organizations/${org.slug}/releases/3.0.0/`)).body).toMatchObject({ deployCount: 1, lastDeploy: { environment: "staging" } });
  });

  it("hides archived releases from lists unless asked, and restores them", async () => {
    await newRelease("4.0.0");
    const archived = await call("PUT", `/projects/${org.slug}/${project.slug}/releases/4.0.0/`, { status: "archived" });
    expect(archived.body.status).toBe("archived");
    const versions = async (query = "", pathname = `/organizations/${org.slug}/releases/`) =>
      (await call("GET", `${pathname}${query}`, undefined, tokens.read)).body.map((release: { version: string }) => release.version);
    expect(await versions()).not.toContain("4.0.0");
    expect(await versions("", `/projects/${org.slug}/${project.slug}/releases/`)).not.toContain("4.0.0");
    expect(await versions("?status=archived")).toEqual(["4.0.0"]);
    expect(await versions("?status=any")).toContain("4.0.0");
    await call("POST", `/organizations/${org.slug}/releases/`, { version: "4.0.0", projects: [], status: "open" });
    expect(await versions()).toContain("4.0.0");
  });

  it("counts the issues first seen in a release and refuses to delete a release issues name (400, Sentry's detail); deletes one without", async () => {
    await newRelease("5.0.0");
    await sendEvent(server, project, { type: "ReleaseError", value: "boom", fn: "checkout", release: "5.0.0" });
    await issueByType(session, project.id, "ReleaseError");
    const view = await call("GET", `/organizations/${org.slug}/releases/5.0.0/`);
    expect(view.body.newGroups).toBe(1);
    expect(view.body.firstEvent).not.toBeNull();
    expect(view.body.lastEvent).not.toBeNull();
    expect(await call("DELETE", `/organizations/${org.slug}/releases/5.0.0/`)).toEqual({ status: 400, body: { detail: RELEASE_REFERENCED } });
    expect((await call("GET", `/organizations/${org.slug}/releases/5.0.0/`)).status).toBe(200);

    await newRelease("5.1.0");
    await call("POST", `/organizations/${org.slug}/releases/5.1.0/deploys/`, { environment: "production" });
    expect(await call("DELETE", `/projects/${org.slug}/${project.slug}/releases/5.1.0/`)).toEqual({ status: 204, body: null });
    expect((await call("GET", `/organizations/${org.slug}/releases/5.1.0/`)).status).toBe(404);
  });
});
