import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueActivities, member } from "../db/schema/index";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { signUpVerified } from "../../../test/helpers/test-users";
import { createTriageProject, issueByType, sendEvent, sendEvents, triageTenant } from "../../../test/helpers/triage-seed";

describe("issue detail and triage", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;
  const scope = (issueId: string) => ({ projectId: tenant.project.id, issueId });
  const issuePath = (issueId: string) => `/api/v1/organizations/${tenant.org.id}/projects/${tenant.project.id}/issues/${issueId}`;
  const activityRows = (issueId: string) => server.database.db.select().from(issueActivities).where(eq(issueActivities.issueId, issueId));

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await triageTenant(server, "Triage");
  });
  afterAll(() => server.close());

  it("details an issue: counts, releases, latest exception and the tags breakdown", async () => {
    const { session, project } = tenant;
    const wide = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${String(i).padStart(2, "0")}`, "x"]));
    await sendEvent(server, project, { type: "TagsError", value: "tags", fn: "tags", release: "shop@1.0.0", tags: wide });
    for (let n = 0; n < 12; n++) {
      await sendEvent(server, project, {
        type: "TagsError",
        value: "tags",
        fn: "tags",
        release: "shop@1.1.0",
        tags: { attempt: `a${n}`, browser: n < 8 ? "Chrome" : "Firefox" },
        user: { id: `u${n % 3}` },
      });
    }
    const { id } = await issueByType(session, project.id, "TagsError");
    // Tag counts are written about once a second (TagCountBuffer): wait for all 13 events' levels.
    await expect
      .poll(async () => (await session.query("issue.get", scope(id))).data.tags.find((tag: { key: string }) => tag.key === "level")?.totalCount)
      .toBe(13);
    const { data: issue, error } = await session.query("issue.get", scope(id));
    expect(error).toBeUndefined();
    expect(issue).toMatchObject({
      eventCount: 13,
      userCount: 3,
      firstRelease: "shop@1.0.0",
      lastRelease: "shop@1.1.0",
      status: "OPEN",
      resolvedAt: null,
      groupingVersion: 2,
    });
    const exceptions = await session.query("exception.list", { projectId: project.id, issueId: id, size: 1 });
    expect(issue.latestExceptionId).toBe(exceptions.data.items[0].id);

    expect(issue.tags).toHaveLength(20);
    const keys = issue.tags.map((tag: { key: string }) => tag.key);
    expect(keys.slice(0, 5)).toEqual(["environment", "level", "release", "attempt", "browser"]);
    // 15 of the 25 single-use keys fit under the 20-key cap; ties go by key name.
    expect(keys.slice(5)).toEqual(Object.keys(wide).slice(0, 15));
    const totals = issue.tags.map((tag: { totalCount: number }) => tag.totalCount);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const attempt = issue.tags.find((tag: { key: string }) => tag.key === "attempt");
    expect(attempt.totalCount).toBe(12);
    expect(attempt.values).toHaveLength(10);
    const browser = issue.tags.find((tag: { key: string }) => tag.key === "browser");
    expect(browser.values).toEqual([
      { value: "Chrome", count: 8 },
      { value: "Firefox", count: 4 },
    ]);
    const release = issue.tags.find((tag: { key: string }) => tag.key === "release");
    expect(release.values).toEqual([
      { value: "shop@1.1.0", count: 12 },
      { value: "shop@1.0.0", count: 1 },
    ]);

    const viaRest = await session.request(issuePath(id));
    expect(viaRest.status).toBe(200);
    expect(viaRest.body.latestExceptionId).toBe(issue.latestExceptionId);
    expect(viaRest.body.firstSeen).toBe(issue.firstSeen.toISOString());
  });

  it("records who changed status and severity, newest first; a no-op records nothing", async () => {
    const { session, project } = tenant;
    await sendEvent(server, project, { type: "StatusError", value: "s", fn: "status" });
    const { id } = await issueByType(session, project.id, "StatusError");
    const resolved = await session.mutation("issue.setStatus", { ...scope(id), status: "RESOLVED" });
    expect(resolved.error).toBeUndefined();
    expect(resolved.data.status).toBe("RESOLVED");
    expect(resolved.data.resolvedAt).toBeInstanceOf(Date);
    const again = await session.mutation("issue.setStatus", { ...scope(id), status: "RESOLVED" });
    expect(again.data.activity).toHaveLength(1);
    const severity = await session.mutation("issue.setSeverity", { ...scope(id), severity: "CRITICAL" });
    expect(severity.data.severity).toBe("CRITICAL");
    const reopened = await session.request(`${issuePath(id)}/status`, { method: "PUT", body: { status: "OPEN" } });
    expect(reopened.status).toBe(200);
    expect(reopened.body.resolvedAt).toBeNull();
    const lowered = await session.request(`${issuePath(id)}/severity`, { method: "PUT", body: { severity: "LOW" } });
    expect(lowered.body.severity).toBe("LOW");

    const { data: issue } = await session.query("issue.get", scope(id));
    const actor = { id: tenant.userId, name: "Triage User", email: tenant.email.toLowerCase() };
    expect(issue.activity.map((entry: { kind: string; from: string; to: string }) => [entry.kind, entry.from, entry.to])).toEqual([
      ["severity", "CRITICAL", "LOW"],
      ["status", "RESOLVED", "OPEN"],
      ["severity", "HIGH", "CRITICAL"],
      ["status", "OPEN", "RESOLVED"],
    ]);
    expect(issue.activity.every((entry: { actor: unknown }) => JSON.stringify(entry.actor) === JSON.stringify(actor))).toBe(true);
    expect(await activityRows(id)).toHaveLength(4);

    const invalid = await session.request(`${issuePath(id)}/status`, { method: "PUT", body: { status: "CLOSED" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe("VALIDATION_ERROR");
  });

  it("reopens a RESOLVED issue receiving a new event as a regression; resolving again clears the flag", async () => {
    const { session, project } = tenant;
    await sendEvent(server, project, { type: "RegressionError", value: "r", fn: "regress" });
    const { id } = await issueByType(session, project.id, "RegressionError");
    await session.mutation("issue.setStatus", { ...scope(id), status: "RESOLVED" });
    await sendEvent(server, project, { type: "RegressionError", value: "r", fn: "regress" });
    const reopened = await session.query("issue.get", scope(id));
    expect(reopened.data).toMatchObject({ status: "OPEN", isRegression: true, resolvedAt: null, eventCount: 2 });
    const resolved = await session.mutation("issue.setStatus", { ...scope(id), status: "RESOLVED" });
    expect(resolved.data.isRegression).toBe(false);

    await sendEvent(server, project, { type: "IgnoredError", value: "i", fn: "ignore" });
    const ignored = await issueByType(session, project.id, "IgnoredError");
    await session.mutation("issue.setStatus", { ...scope(ignored.id), status: "IGNORED" });
    await sendEvent(server, project, { type: "IgnoredError", value: "i", fn: "ignore" });
    expect((await session.query("issue.get", scope(ignored.id))).data).toMatchObject({ status: "IGNORED", isRegression: false, eventCount: 2 });
  });

  it("bulk-sets statuses of this project's issues only, one activity row per change", async () => {
    const { session, project } = tenant;
    await sendEvents(server, project, [
      { type: "BulkOneError", value: "1", fn: "bulk1" },
      { type: "BulkTwoError", value: "2", fn: "bulk2" },
    ]);
    const one = await issueByType(session, project.id, "BulkOneError");
    const two = await issueByType(session, project.id, "BulkTwoError");
    const sibling = await createTriageProject(session, "Sibling");
    await sendEvent(server, sibling, { type: "SiblingError", value: "s", fn: "sibling" });
    const siblingIssue = await issueByType(session, sibling.id, "SiblingError");

    const ids = [one.id, two.id, siblingIssue.id, crypto.randomUUID()];
    const bulk = await session.mutation("issue.bulkSetStatus", { projectId: project.id, issueIds: ids, status: "IGNORED" });
    expect(bulk.data).toEqual({ updated: 2 });
    expect((await session.mutation("issue.bulkSetStatus", { projectId: project.id, issueIds: ids, status: "IGNORED" })).data).toEqual({ updated: 0 });
    expect((await activityRows(one.id)).map((row) => [row.fromValue, row.toValue, row.actorUserId])).toEqual([["OPEN", "IGNORED", tenant.userId]]);
    expect(await activityRows(siblingIssue.id)).toHaveLength(0);
    expect((await issueByType(session, sibling.id, "SiblingError")).status).toBe("OPEN");

    const viaRest = await session.request(`/api/v1/organizations/${tenant.org.id}/projects/${project.id}/issues/bulk-status`, {
      body: { issueIds: [one.id, two.id], status: "OPEN", projectId: sibling.id, organizationId: "x" },
    });
    expect(viaRest.status).toBe(200);
    expect(viaRest.body).toEqual({ updated: 2 });
    expect((await session.mutation("issue.bulkSetStatus", { projectId: project.id, issueIds: [], status: "OPEN" })).error?.code).toBe("BAD_REQUEST");
  });

  it("lets a plain member triage", async () => {
    const { project } = tenant;
    await sendEvent(server, project, { type: "MemberError", value: "m", fn: "member" });
    const { id } = await issueByType(tenant.session, project.id, "MemberError");
    const helper = await signUpVerified(server, { name: "Member User" });
    await server.database.db.insert(member).values({ organizationId: tenant.org.id, userId: helper.userId, role: "member", createdAt: new Date() });
    const active = await helper.session.request("/api/auth/organization/set-active", { body: { organizationId: tenant.org.id } });
    expect(active.status, active.text).toBe(200);
    const changed = await helper.session.mutation("issue.setStatus", { ...scope(id), status: "RESOLVED" });
    expect(changed.error).toBeUndefined();
    expect(changed.data.activity[0].actor.name).toBe("Member User");
    const rows = await server.database.db
      .select()
      .from(member)
      .where(and(eq(member.organizationId, tenant.org.id), eq(member.userId, helper.userId)));
    expect(rows[0].role).toBe("member");
  });
});
