import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { member, releases } from "../db/schema/index";
import { addReleaseProjects, upsertRelease } from "../releases/release.queries";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { signUpVerified } from "../../../test/helpers/test-users";
import { createTriageProject, issueByType, sendEvent, triageTenant, type TriageProject } from "../../../test/helpers/triage-seed";

/** Issue 34 over both transports: resolve in the next release or a named one, then ingest decides. */
describe("resolve in a release over tRPC and REST", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;
  const t0 = Date.parse("2026-11-01T00:00:00Z");
  const scope = (issueId: string) => ({ projectId: tenant.project.id, issueId });
  const issuePath = (issueId: string, project = tenant.project) => `/api/v1/organizations/${tenant.org.id}/projects/${project.id}/issues/${issueId}`;
  type Entry = { kind: string; from: string | null; to: string | null };
  const activityOf = (issue: { activity: Entry[] }) => issue.activity.map((entry) => [entry.kind, entry.from, entry.to]);

  async function seedRelease(projectId: string, version: string, day: number) {
    const { row } = await upsertRelease(server.database.db, tenant.org.id, version, {});
    await server.database.db
      .update(releases)
      .set({ createdAt: new Date(t0 + day * 86_400_000) })
      .where(eq(releases.id, row.id));
    await addReleaseProjects(server.database.db, tenant.org.id, row.id, [projectId]);
  }

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await triageTenant(server, "Release Resolve");
    for (const [day, version] of ["shop@1.0.0", "shop@1.1.0", "shop@1.2.0", "shop@1.3.0"].entries()) await seedRelease(tenant.project.id, version, day);
  });
  afterAll(() => server.close());

  it("tRPC: resolve in the next release keeps it resolved for that release and reopens on a newer one, naming it", async () => {
    const { session, project } = tenant;
    await sendEvent(server, project, { type: "NextError", value: "n", fn: "next", release: "shop@1.0.0" });
    const { id } = await issueByType(session, project.id, "NextError");
    // The project's latest release is shop@1.3.0: "next" is anything after it.
    const resolved = await session.mutation("issue.setStatus", { ...scope(id), status: "RESOLVED", inRelease: "next" });
    expect(resolved.error).toBeUndefined();
    expect(resolved.data).toMatchObject({ status: "RESOLVED", resolvedInRelease: "shop@1.3.0", resolvedInNextRelease: true });
    expect(activityOf(resolved.data)[0]).toEqual(["resolved_in_next_release", "OPEN", "shop@1.3.0"]);

    await sendEvent(server, project, { type: "NextError", value: "n", fn: "next", release: "shop@1.3.0" });
    await sendEvent(server, project, { type: "NextError", value: "n", fn: "next", release: "shop@1.1.0" });
    const kept = (await session.query("issue.get", scope(id))).data;
    expect(kept).toMatchObject({ status: "RESOLVED", isRegression: false, eventCount: 3, resolvedInRelease: "shop@1.3.0" });
    expect(kept.activity.some((entry: Entry) => entry.kind.startsWith("regression"))).toBe(false);

    await seedRelease(project.id, "shop@1.4.0", 10);
    await sendEvent(server, project, { type: "NextError", value: "n", fn: "next", release: "shop@1.4.0" });
    const reopened = (await session.query("issue.get", scope(id))).data;
    expect(reopened).toMatchObject({ status: "OPEN", isRegression: true, resolvedInRelease: null, resolvedInNextRelease: false, lastRelease: "shop@1.4.0" });
    expect(activityOf(reopened)[0]).toEqual(["regression_in_release", "shop@1.3.0", "shop@1.4.0"]);
  });

  it("REST: resolve in a named release keeps it resolved for older releases and reopens on that one", async () => {
    const { session, project } = tenant;
    await sendEvent(server, project, { type: "NamedError", value: "v", fn: "named", release: "shop@1.0.0" });
    const { id } = await issueByType(session, project.id, "NamedError");
    const resolved = await session.request(`${issuePath(id)}/status`, { method: "PUT", body: { status: "RESOLVED", inRelease: "shop@1.2.0" } });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body).toMatchObject({ status: "RESOLVED", resolvedInRelease: "shop@1.2.0", resolvedInNextRelease: false });
    expect(resolved.body.activity[0]).toMatchObject({ kind: "resolved_in_release", from: "OPEN", to: "shop@1.2.0" });

    await sendEvent(server, project, { type: "NamedError", value: "v", fn: "named", release: "shop@1.1.0" });
    expect((await session.request(issuePath(id))).body).toMatchObject({ status: "RESOLVED", eventCount: 2 });
    await sendEvent(server, project, { type: "NamedError", value: "v", fn: "named", release: "shop@1.2.0" });
    const reopened = await session.request(issuePath(id));
    expect(reopened.body).toMatchObject({ status: "OPEN", isRegression: true, resolvedInRelease: null, firstRelease: "shop@1.0.0", lastRelease: "shop@1.2.0" });
    expect(reopened.body.activity[0]).toMatchObject({ kind: "regression_in_release", from: "shop@1.2.0", to: "shop@1.2.0", actor: null });
  });

  it("lists the releases the issue appeared in, newest release first, with counts", async () => {
    const { session, project } = tenant;
    for (const release of ["shop@1.1.0", "shop@1.0.0", "shop@1.1.0", "shop@1.2.0"])
      await sendEvent(server, project, { type: "SpreadError", value: "s", fn: "spread", release });
    const { id } = await issueByType(session, project.id, "SpreadError");
    // Tag counts are written about once a second (TagCountBuffer).
    await expect.poll(async () => (await session.query("issue.get", scope(id))).data.releases.length).toBe(3);
    const { data: issue } = await session.query("issue.get", scope(id));
    expect(issue.releases).toEqual([
      { version: "shop@1.2.0", count: 1 },
      { version: "shop@1.1.0", count: 2 },
      { version: "shop@1.0.0", count: 1 },
    ]);
    expect((await session.request(issuePath(id))).body.releases).toEqual(issue.releases);
  });

  it("offers the project's releases newest first to resolve in", async () => {
    const { session, project } = tenant;
    const { data, error } = await session.query("issue.releaseChoices", { projectId: project.id });
    expect(error).toBeUndefined();
    expect(data.map((choice: { version: string }) => choice.version).slice(0, 2)).toEqual(["shop@1.4.0", "shop@1.3.0"]);
  });

  it("answers 400 with a clear message for a project without releases, an unknown version and inRelease without RESOLVED", async () => {
    const { session } = tenant;
    const bare: TriageProject = await createTriageProject(session, "No releases");
    await sendEvent(server, bare, { type: "BareError", value: "b", fn: "bare" });
    const { id } = await issueByType(session, bare.id, "BareError");
    const noRelease = await session.request(`${issuePath(id, bare)}/status`, { method: "PUT", body: { status: "RESOLVED", inRelease: "next" } });
    expect(noRelease.status).toBe(400);
    expect(noRelease.body.error.message).toBe("This project has no release yet: resolve it without a release, or name one.");
    const viaTrpc = await session.mutation("issue.setStatus", { projectId: bare.id, issueId: id, status: "RESOLVED", inRelease: "next" });
    expect(viaTrpc.error?.code).toBe("BAD_REQUEST");

    const unknown = await session.request(`${issuePath(id, bare)}/status`, { method: "PUT", body: { status: "RESOLVED", inRelease: "shop@9.9.9" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("There is no release “shop@9.9.9” in this organization");
    const notResolving = await session.request(`${issuePath(id, bare)}/status`, { method: "PUT", body: { status: "IGNORED", inRelease: "next" } });
    expect(notResolving.status).toBe(400);
    expect(notResolving.body.error.code).toBe("VALIDATION_ERROR");
    const empty = await session.request(`${issuePath(id, bare)}/status`, { method: "PUT", body: { status: "RESOLVED", inRelease: "  " } });
    expect(empty.status).toBe(400);
    const tooLong = await session.mutation("issue.setStatus", { projectId: bare.id, issueId: id, status: "RESOLVED", inRelease: "v".repeat(201) });
    expect(tooLong.error?.code).toBe("BAD_REQUEST");
    // Nothing changed on any refusal.
    expect((await session.query("issue.get", { projectId: bare.id, issueId: id })).data).toMatchObject({ status: "OPEN", activity: [] });
  });

  it("bulk: resolves the selected issues in the project's next release", async () => {
    const { session, project } = tenant;
    await sendEvent(server, project, { type: "BulkRelError", value: "b", fn: "bulkrel", release: "shop@1.0.0" });
    const { id } = await issueByType(session, project.id, "BulkRelError");
    const bulk = await session.request(`/api/v1/organizations/${tenant.org.id}/projects/${project.id}/issues/bulk-status`, {
      body: { issueIds: [id], status: "RESOLVED", inRelease: "next" },
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(bulk.body).toEqual({ updated: 1 });
    expect((await session.query("issue.get", scope(id))).data).toMatchObject({ resolvedInRelease: "shop@1.4.0", resolvedInNextRelease: true });
  });

  it("refuses a role without issue:triage (FORBIDDEN before any release lookup), lets a member", async () => {
    const { project } = tenant;
    await sendEvent(server, project, { type: "RoleRelError", value: "r", fn: "rolerel" });
    const { id } = await issueByType(tenant.session, project.id, "RoleRelError");
    const helper = await signUpVerified(server, { name: "Release Viewer" });
    await server.database.db.insert(member).values({ organizationId: tenant.org.id, userId: helper.userId, role: "viewer", createdAt: new Date() });
    await helper.session.request("/api/auth/organization/set-active", { body: { organizationId: tenant.org.id } });
    const refused = await helper.session.mutation("issue.setStatus", { ...scope(id), status: "RESOLVED", inRelease: "shop@9.9.9" });
    expect(refused.error?.code).toBe("FORBIDDEN");
    const refusedRest = await helper.session.request(`${issuePath(id)}/status`, { method: "PUT", body: { status: "RESOLVED", inRelease: "next" } });
    expect(refusedRest.status).toBe(403);
    // Reading the choices stays open to the role.
    expect((await helper.session.query("issue.releaseChoices", { projectId: project.id })).error).toBeUndefined();
    await server.database.db.update(member).set({ role: "member" }).where(eq(member.userId, helper.userId));
    const allowed = await helper.session.mutation("issue.setStatus", { ...scope(id), status: "RESOLVED", inRelease: "next" });
    expect(allowed.error).toBeUndefined();
    expect(allowed.data.resolvedInNextRelease).toBe(true);
  });
});
