/**
 * The release read side (issue 34) over REST and tRPC, on rows written straight into the release
 * tables: health math (crash-free sessions and users, adoption, null without sessions), the
 * environment filter, paging, archived releases, one release's page, suspect commits and tenancy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/client";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { hoursAgo, issueByType, sendEvent, triageTenant, type TriageProject } from "../../../test/helpers/triage-seed";
import { seedCommits, seedDeploy, seedHealthHour, seedHealthUser, seedRelease } from "../../../test/helpers/release-seed";
import type { HttpSession } from "../../../test/helpers/http-session";

describe("releases: list, detail, suspect commits (issue 34)", () => {
  let server: TestServer;
  let db: Db;
  let session: HttpSession;
  let orgId: string;
  let project: TriageProject;
  let other: Awaited<ReturnType<typeof triageTenant>>;
  let base: string;

  beforeAll(async () => {
    server = await startTestServer();
    db = server.services.db;
    const tenant = await triageTenant(server, "Releases");
    ({ session, project } = tenant);
    orgId = tenant.org.id;
    other = await triageTenant(server, "Releases Other");
    base = `/api/v1/organizations/${orgId}/projects/${project.id}/releases`;
    const scope = { organizationId: orgId, projectId: project.id };

    const v1 = await seedRelease(db, { ...scope, version: "shop@1.0.0", createdAt: hoursAgo(72) });
    await seedRelease(db, { ...scope, version: "shop@2.0.0", createdAt: hoursAgo(24) });
    await seedRelease(db, { ...scope, version: "shop@3.0.0", createdAt: hoursAgo(2) });
    await seedRelease(db, { ...scope, version: "shop@0.9.0", createdAt: hoursAgo(96), status: "archived" });
    // Another organization's release of the same name must not leak into A's figures.
    await seedRelease(db, { organizationId: other.org.id, projectId: other.project.id, version: "shop@other" });

    // 1.0.0: production 200 sessions, 20 crashed (90 % crash-free); staging 50 sessions, all crashed.
    await seedHealthHour(db, { ...scope, release: "shop@1.0.0", environment: "production", hour: hoursAgo(2), sessions: 100, crashed: 5, errored: 10 });
    await seedHealthHour(db, { ...scope, release: "shop@1.0.0", environment: "production", hour: hoursAgo(49), sessions: 100, crashed: 15 });
    await seedHealthHour(db, { ...scope, release: "shop@1.0.0", environment: "staging", hour: hoursAgo(3), sessions: 50, crashed: 50 });
    // 2.0.0: production 300 sessions, 1 crashed.
    await seedHealthHour(db, { ...scope, release: "shop@2.0.0", environment: "production", hour: hoursAgo(1), sessions: 300, crashed: 1 });
    // 1.0.0's users: u1 crashed one day and not the next; five distinct users in all, one crashed.
    for (const [day, userKey, crashed] of [
      [hoursAgo(2), "u1", true],
      [hoursAgo(2), "u2", false],
      [hoursAgo(2), "u3", false],
      [hoursAgo(49), "u1", false],
      [hoursAgo(49), "u4", false],
      [hoursAgo(49), "u5", false],
    ] as const)
      await seedHealthUser(db, { ...scope, release: "shop@1.0.0", environment: "production", day, userKey, crashed });

    await seedDeploy(db, orgId, v1, "production", hoursAgo(60));
    await seedDeploy(db, orgId, v1, "staging", hoursAgo(70));
    await seedCommits(db, orgId, v1, [
      {
        commitId: "c0".padEnd(40, "0"),
        message: "Fix the checkout total",
        authorName: "Ada",
        authorEmail: "ada@example.com",
        files: ["server/app/handlers.js"],
      },
      { commitId: "c1".padEnd(40, "0"), message: "Docs", authorName: "Bob", files: ["lib/other.js", "README.md"] },
      { commitId: "c2".padEnd(40, "0"), message: "Rename", authorName: "Cy", files: ["server/app/myhandlers.js", "server/xapp/handlers.js"] },
      { commitId: "c3".padEnd(40, "0"), message: "Add the handlers", authorName: "Dee", files: ["app/handlers.js"] },
    ]);

    // Events: two of 1.0.0 (one issue first seen in it), one of 3.0.0 — which has no sessions.
    await sendEvent(server, project, { type: "SuspectError", value: "boom", fn: "checkout", release: "shop@1.0.0" });
    await sendEvent(server, project, { type: "SuspectError", value: "boom", fn: "checkout", release: "shop@1.0.0" });
    await sendEvent(server, project, { type: "UnhealthyError", value: "no sessions", fn: "pay", release: "shop@3.0.0" });
  }, 120_000);
  afterAll(() => server.close());

  const byVersion = (items: { version: string }[]) => Object.fromEntries(items.map((item) => [item.version, item])) as Record<string, any>;

  it("lists open releases newest first with their health and figures", async () => {
    // Tag counts (the events per release) are written by ingest's buffer a moment after the events.
    await expect.poll(async () => byVersion((await session.request(base)).body.items)["shop@1.0.0"].events).toBe(2);
    const list = await session.request(base);
    expect(list.status, list.text).toBe(200);
    expect(list.body.items.map((item: { version: string }) => item.version)).toEqual(["shop@3.0.0", "shop@2.0.0", "shop@1.0.0"]);
    const items = byVersion(list.body.items);
    // All environments: 250 sessions, 70 crashed → 72 %; 5 users, 1 crashed → 80 %.
    // Adoption over the last 24 h: 1.0.0 had 150 of 450 sessions, 2.0.0 300 of them.
    expect(items["shop@1.0.0"].health).toEqual({ sessions: 250, crashFreeSessions: 72, crashFreeUsers: 80, adoption: 33.33 });
    expect(items["shop@2.0.0"].health).toEqual({ sessions: 300, crashFreeSessions: 99.67, crashFreeUsers: null, adoption: 66.67 });
    // Errors without sessions never make a release healthy.
    expect(items["shop@3.0.0"].health).toEqual({ sessions: 0, crashFreeSessions: null, crashFreeUsers: null, adoption: 0 });
    expect(items["shop@1.0.0"]).toMatchObject({ newIssues: 1, events: 2, deploys: 2, commitCount: 4 });
    expect(items["shop@3.0.0"]).toMatchObject({ newIssues: 1, events: 1, deploys: 0, commitCount: 0 });
    expect(items["shop@1.0.0"].firstEvent).not.toBeNull();
    expect(items["shop@2.0.0"]).toMatchObject({ newIssues: 0, events: 0, firstEvent: null, lastEvent: null });
    expect(items["shop@2.0.0"].sessionsByDay).toHaveLength(14);
    expect(items["shop@2.0.0"].sessionsByDay.reduce((sum: number, day: number) => sum + day, 0)).toBe(300);
  });

  it("filters by the environment as the SDK named it, health included", async () => {
    const staging = await session.request(`${base}?environment=staging`);
    expect(staging.status, staging.text).toBe(200);
    expect(staging.body.items.map((item: { version: string }) => item.version)).toEqual(["shop@1.0.0"]);
    expect(staging.body.items[0].health).toEqual({ sessions: 50, crashFreeSessions: 0, crashFreeUsers: null, adoption: 100 });
    expect(staging.body.items[0].deploys).toBe(1);
    const production = await session.request(`${base}?environment=production`);
    const items = byVersion(production.body.items);
    expect(Object.keys(items).sort()).toEqual(["shop@1.0.0", "shop@2.0.0"]);
    expect(items["shop@1.0.0"].health).toEqual({ sessions: 200, crashFreeSessions: 90, crashFreeUsers: 80, adoption: 25 });
    expect(items["shop@2.0.0"].health.adoption).toBe(75);
    const none = await session.request(`${base}?environment=nowhere`);
    expect(none.body).toMatchObject({ items: [], meta: { totalItems: 0 } });
  });

  it("pages like the other lists and shows archived releases only when asked", async () => {
    const second = await session.request(`${base}?size=1&page=2`);
    expect(second.body.items.map((item: { version: string }) => item.version)).toEqual(["shop@2.0.0"]);
    expect(second.body.meta).toEqual({ itemCount: 1, totalItems: 3, itemsPerPage: 1, totalPages: 3, currentPage: 2 });
    const archived = await session.request(`${base}?status=archived`);
    expect(archived.body.items.map((item: { version: string }) => item.version)).toEqual(["shop@0.9.0"]);
    const all = await session.request(`${base}?status=all`);
    expect(all.body.meta.totalItems).toBe(4);
    const bad = await session.request(`${base}?status=deleted&size=1000`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
  });

  it("answers one release with daily health, commits, deploys, new issues and bundles", async () => {
    const detail = await session.request(`${base}/${encodeURIComponent("shop@1.0.0")}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.commits.map((commit: { message: string }) => commit.message)).toEqual(["Fix the checkout total", "Docs", "Rename", "Add the handlers"]);
    expect(detail.body.commits[0]).toMatchObject({
      authorName: "Ada",
      repository: "acme/shop",
      files: [{ filename: "server/app/handlers.js", changeType: "M" }],
    });
    expect(detail.body.deployList.map((deploy: { environment: string }) => deploy.environment)).toEqual(["production", "staging"]);
    expect(detail.body.newIssueList.map((issue: { title: string }) => issue.title)).toEqual([expect.stringMatching(/^SuspectError/)]);
    expect(detail.body.regressedIssues).toEqual([]);
    expect(detail.body.artifactBundles).toBe(0);
    expect(detail.body.healthByDay).toHaveLength(30);
    const days = detail.body.healthByDay.filter((day: { sessions: number }) => day.sessions > 0);
    expect(days.reduce((sum: number, day: { sessions: number }) => sum + day.sessions, 0)).toBe(250);
    expect(detail.body.healthByDay[0].crashFreeSessions).toBeNull();
    expect(detail.body.health.crashFreeSessions).toBe(72);
    const missing = await session.request(`${base}/nope`);
    expect(missing.status).toBe(404);
  });

  it("finds the commits that touched the crashing files, newest first, and the release's first deploy", async () => {
    const issue = await issueByType(session, project.id, "SuspectError");
    const suspects = await session.request(`/api/v1/organizations/${orgId}/projects/${project.id}/issues/${issue.id}/suspect-commits`);
    expect(suspects.status, suspects.text).toBe(200);
    expect(suspects.body.release).toBe("shop@1.0.0");
    // c0 and c3 touched app/handlers.js (the frame /app/handlers.js); c1 did not, c2's files only look alike.
    expect(suspects.body.commits.map((commit: { message: string }) => commit.message)).toEqual(["Fix the checkout total", "Add the handlers"]);
    expect(suspects.body.commits[0]).toMatchObject({ authorName: "Ada", authorEmail: "ada@example.com", matchedFiles: ["server/app/handlers.js"] });
    expect(suspects.body.firstDeploy.environment).toBe("staging");
    const viaTrpc = await session.query("release.suspectCommits", { projectId: project.id, issueId: issue.id });
    expect(viaTrpc.data.commits).toHaveLength(2);
    // An issue of a release without commits has none.
    const unhealthy = await issueByType(session, project.id, "UnhealthyError");
    const none = await session.query("release.suspectCommits", { projectId: project.id, issueId: unhealthy.id });
    expect(none.data).toEqual({ release: "shop@3.0.0", commits: [], firstDeploy: null });
  });

  it("serves the same over tRPC and to an API token with project:read", async () => {
    const list = await session.query("release.list", { projectId: project.id, environment: "staging" });
    expect(list.data.items.map((item: { version: string }) => item.version)).toEqual(["shop@1.0.0"]);
    const environments = await session.query("release.environments", { projectId: project.id });
    expect(environments.data).toEqual(["production", "staging"]);
    const created = await session.mutation("apiToken.create", { name: "releases", scopes: ["project:read"] });
    const token = await fetch(`${server.url}${base}`, { headers: { authorization: `Bearer ${created.data.secret}` } });
    expect(token.status).toBe(200);
    expect(((await token.json()) as { meta: { totalItems: number } }).meta.totalItems).toBe(3);
  });

  // After the figures: it reopens an issue and adds an event of 1.0.0, which the tests above do not expect.
  it("lists an issue that regressed while the release sent its events, and only under that release", async () => {
    const issue = await issueByType(session, project.id, "SuspectError");
    const resolved = await session.mutation("issue.setStatus", { projectId: project.id, issueId: issue.id, status: "RESOLVED" });
    expect(resolved.error).toBeUndefined();
    await sendEvent(server, project, { type: "SuspectError", value: "boom", fn: "checkout", release: "shop@1.0.0" });
    await expect.poll(async () => (await issueByType(session, project.id, "SuspectError")).isRegression).toBe(true);
    const detail = await session.request(`${base}/${encodeURIComponent("shop@1.0.0")}`);
    expect(detail.body.regressedIssues.map((regressed: { id: string }) => regressed.id)).toEqual([issue.id]);
    const other = await session.request(`${base}/${encodeURIComponent("shop@2.0.0")}`);
    expect(other.body.regressedIssues).toEqual([]);
  });

  it("answers NOT_FOUND for another organization's project and release", async () => {
    const foreignProject = await session.request(`/api/v1/organizations/${orgId}/projects/${other.project.id}/releases`);
    expect(foreignProject.status).toBe(404);
    const foreignOrg = await session.request(`/api/v1/organizations/${other.org.id}/projects/${other.project.id}/releases`);
    expect(foreignOrg.status).toBe(404);
    const foreignRelease = await session.request(`${base}/${encodeURIComponent("shop@other")}`);
    expect(foreignRelease.status).toBe(404);
    const viaTrpc = await other.session.query("release.detail", { projectId: project.id, version: "shop@1.0.0" });
    expect(viaTrpc.error?.code).toBe("NOT_FOUND");
    expect(JSON.stringify(await other.session.query("release.list", { projectId: other.project.id }))).not.toContain("shop@1.0.0");
  });
});
