import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueFingerprints, issueHourlyCounts, issues, member, occurrences } from "../db/schema/index";
import { callerFor } from "../../../test/helpers/trpc-caller";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { signUpVerified } from "../../../test/helpers/test-users";
import { issueByType, sendEvent, sendEvents, triageTenant } from "../../../test/helpers/triage-seed";

/** Merge, unmerge, fingerprints and similar issues over tRPC and REST, on a real server. */
describe("merging and splitting issues", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;
  const scope = (issueId: string) => ({ projectId: tenant.project.id, issueId });
  const issuesPath = () => `/api/v1/organizations/${tenant.org.id}/projects/${tenant.project.id}/issues`;
  const exceptionCount = async (issueId: string) =>
    (await tenant.session.query("exception.list", { projectId: tenant.project.id, issueId, size: 1 })).data.meta.totalItems;

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await triageTenant(server, "Grouping");
  });
  afterAll(() => server.close());

  it("merges over tRPC into the issue with most events, keeping both histories, and routes future events there", async () => {
    const { session, project } = tenant;
    await sendEvents(server, project, [
      { type: "MergeA", value: "a", fn: "alpha", release: "shop@1.0.0", user: { id: "u1" } },
      { type: "MergeA", value: "a", fn: "alpha", release: "shop@1.0.0", user: { id: "u2" } },
      { type: "MergeA", value: "a", fn: "alpha", release: "shop@1.0.0" },
      { type: "MergeB", value: "b", fn: "beta", release: "shop@1.1.0", environment: "staging", user: { id: "u3" } },
    ]);
    const a = await issueByType(session, project.id, "MergeA");
    const b = await issueByType(session, project.id, "MergeB");
    const merged = await session.mutation("issue.merge", { projectId: project.id, issueIds: [b.id, a.id] });
    expect(merged.error).toBeUndefined();
    expect(merged.data).toMatchObject({ id: a.id, eventCount: 4, userCount: 3, firstRelease: "shop@1.0.0", lastRelease: "shop@1.1.0" });
    expect(merged.data.environments).toEqual(["production", "staging"]);
    expect(merged.data.activity[0]).toMatchObject({ kind: "merge", from: b.title, to: a.title });
    expect(await exceptionCount(a.id)).toBe(4);
    expect((await session.query("issue.get", scope(b.id))).error?.code).toBe("NOT_FOUND");
    const hourly = await server.database.db.select().from(issueHourlyCounts).where(eq(issueHourlyCounts.issueId, a.id));
    expect(hourly.reduce((sum, row) => sum + Number(row.count), 0)).toBe(4);

    // A new event of B's fingerprint lands in the merged issue.
    await sendEvent(server, project, { type: "MergeB", value: "b", fn: "beta" });
    expect((await session.query("issue.get", scope(a.id))).data.eventCount).toBe(5);
    expect(
      (await session.query("issue.list", { projectId: project.id, size: 100 })).data.items.filter((i: { title: string }) => i.title.startsWith("MergeB")),
    ).toEqual([]);

    const prints = await session.query("issue.fingerprints", scope(a.id));
    expect(prints.error).toBeUndefined();
    expect(prints.data).toHaveLength(2);
    expect(prints.data.filter((p: { primary: boolean }) => p.primary)).toHaveLength(1);
    expect(prints.data.map((p: { eventCount: number }) => p.eventCount).sort()).toEqual([2, 3]);
    expect(prints.data.find((p: { exceptionType: string }) => p.exceptionType === "MergeB").components).toEqual([
      "type:MergeB",
      "frame:handlers.js|beta|throw new Error(x);",
    ]);
  });

  it("unmerges over REST: the fingerprint's events, counts and future events go to a new issue", async () => {
    const { session, project } = tenant;
    const a = await issueByType(session, project.id, "MergeA");
    const prints = (await session.query("issue.fingerprints", scope(a.id))).data as { fingerprint: string; exceptionType: string }[];
    const bPrint = prints.find((p) => p.exceptionType === "MergeB")!.fingerprint;

    // Tag counts reach the database about once a second (TagCountBuffer): let the last event's land first.
    await expect
      .poll(async () => (await session.query("issue.get", scope(a.id))).data.tags.find((tag: { key: string }) => tag.key === "level")?.totalCount)
      .toBeGreaterThanOrEqual(4);
    const split = await session.request(`${issuesPath()}/${a.id}/unmerge`, { body: { fingerprints: [bPrint] } });
    expect(split.status, split.text).toBe(200);
    expect(split.body).toHaveLength(1);
    const [b] = split.body as { id: string; title: string; eventCount: number; userCount: number }[];
    expect(b).toMatchObject({ title: "MergeB: b", eventCount: 2, userCount: 1 });
    const after = await session.request(`${issuesPath()}/${a.id}`);
    expect(after.body).toMatchObject({ eventCount: 3, userCount: 2, environments: ["production"] });
    expect(after.body.activity[0]).toMatchObject({ kind: "unmerge", to: "MergeB: b" });
    expect(await exceptionCount(b.id)).toBe(2);
    const [link] = await server.database.db.select().from(issueFingerprints).where(eq(issueFingerprints.fingerprint, bPrint));
    expect(link.issueId).toBe(b.id);

    // Rollups and tag counts are split the same way (recounted for the new issue, taken off the source).
    const hourlyTotal = async (issueId: string) =>
      (await server.database.db.select().from(issueHourlyCounts).where(eq(issueHourlyCounts.issueId, issueId))).reduce(
        (sum, row) => sum + Number(row.count),
        0,
      );
    expect([await hourlyTotal(a.id), await hourlyTotal(b.id)]).toEqual([3, 2]);
    const levelTotal = async (issueId: string) =>
      (await session.query("issue.get", scope(issueId))).data.tags.find((tag: { key: string }) => tag.key === "level")?.totalCount;
    await expect.poll(() => levelTotal(a.id)).toBe(3);
    expect(await levelTotal(b.id)).toBe(2);
    const environments = (await session.query("issue.get", scope(b.id))).data.tags.find((tag: { key: string }) => tag.key === "environment");
    expect([...environments.values].sort((x: { value: string }, y: { value: string }) => x.value.localeCompare(y.value))).toEqual([
      { value: "production", count: 1 },
      { value: "staging", count: 1 },
    ]);

    await sendEvent(server, project, { type: "MergeB", value: "b", fn: "beta" });
    expect((await session.request(`${issuesPath()}/${b.id}`)).body.eventCount).toBe(3);

    // The last fingerprint stays; a fingerprint of another issue is refused; neither changes anything.
    const last = await session.request(`${issuesPath()}/${b.id}/unmerge`, { body: { fingerprints: [bPrint] } });
    expect(last.status).toBe(400);
    expect(last.body.error.message).toBe("An issue keeps at least one fingerprint: leave one unselected");
    const foreign = await session.mutation("issue.unmerge", { ...scope(a.id), fingerprints: [bPrint] });
    expect(foreign.error?.code).toBe("BAD_REQUEST");
    const malformed = await session.request(`${issuesPath()}/${a.id}/unmerge`, { body: { fingerprints: ["nope"] } });
    expect(malformed.status).toBe(400);
  });

  it("merges over REST with a chosen target, and refuses bad input and unknown ids as a whole", async () => {
    const { session, project } = tenant;
    await sendEvents(server, project, [
      { type: "RestX", value: "x", fn: "x" },
      { type: "RestX", value: "x", fn: "x" },
      { type: "RestY", value: "y", fn: "y" },
    ]);
    const x = await issueByType(session, project.id, "RestX");
    const y = await issueByType(session, project.id, "RestY");
    const unknown = await session.request(`${issuesPath()}/merge`, { body: { issueIds: [x.id, crypto.randomUUID()] } });
    expect(unknown.status).toBe(404);
    expect((await session.request(`${issuesPath()}/${x.id}`)).body.eventCount).toBe(2);
    const single = await session.request(`${issuesPath()}/merge`, { body: { issueIds: [x.id] } });
    expect(single.status).toBe(400);
    const merged = await session.request(`${issuesPath()}/merge`, { body: { issueIds: [x.id, y.id], targetId: y.id, organizationId: "intruder" } });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body).toMatchObject({ id: y.id, eventCount: 3, title: "RestY: y" });
    expect((await session.request(`${issuesPath()}/${x.id}`)).status).toBe(404);

    // Splitting out the target's own (original) fingerprint: the issue keeps X's, the new issue takes Y's.
    const prints = (await session.request(`${issuesPath()}/${y.id}/fingerprints`)).body as { fingerprint: string; primary: boolean }[];
    const own = prints.find((p) => p.primary)!.fingerprint;
    const split = await session.request(`${issuesPath()}/${y.id}/unmerge`, { body: { fingerprints: [own] } });
    expect(split.status, split.text).toBe(200);
    expect(split.body[0]).toMatchObject({ title: "RestY: y", eventCount: 1 });
    expect((await session.request(`${issuesPath()}/${y.id}`)).body.eventCount).toBe(2);
    const remaining = (await session.request(`${issuesPath()}/${y.id}/fingerprints`)).body as { fingerprint: string; primary: boolean }[];
    expect(remaining).toHaveLength(1);
    expect(remaining[0]).toMatchObject({ primary: true, eventCount: 2 });
    await sendEvents(server, project, [
      { type: "RestX", value: "x", fn: "x" },
      { type: "RestY", value: "y", fn: "y" },
    ]);
    expect((await session.request(`${issuesPath()}/${y.id}`)).body.eventCount).toBe(3);
    expect((await session.request(`${issuesPath()}/${split.body[0].id}`)).body.eventCount).toBe(2);
  });

  /** Issue 37, item 12: the user chooses the issue that stays; permission and tenancy as any merge. */
  it("keeps the issue chosen to stay, even the smaller one, and refuses a target outside the selection or another tenant's", async () => {
    const { session, project } = tenant;
    await sendEvents(server, project, [
      { type: "StayBig", value: "big", fn: "big" },
      { type: "StayBig", value: "big", fn: "big" },
      { type: "StayBig", value: "big", fn: "big" },
      { type: "StaySmall", value: "small", fn: "small" },
      { type: "StayOut", value: "out", fn: "out" },
    ]);
    const big = await issueByType(session, project.id, "StayBig");
    const small = await issueByType(session, project.id, "StaySmall");
    const out = await issueByType(session, project.id, "StayOut");
    const untouched = async () => {
      for (const [issue, count] of [
        [big, 3],
        [small, 1],
        [out, 1],
      ] as const)
        expect((await session.query("issue.get", scope(issue.id))).data?.eventCount, issue.title).toBe(count);
    };

    // A target that is not among the merged issues would merge one nobody selected: refused, on both transports.
    const outside = await session.mutation("issue.merge", { projectId: project.id, issueIds: [big.id, small.id], targetId: out.id });
    expect(outside.error?.code).toBe("BAD_REQUEST");
    expect(outside.error?.message).toContain("The issue that stays must be one of the issues merged");
    const outsideRest = await session.request(`${issuesPath()}/merge`, { body: { issueIds: [big.id, small.id], targetId: out.id } });
    expect(outsideRest.status).toBe(400);
    // Another organization's issue as the one to stay is not found, and nothing moves.
    const other = await triageTenant(server, "Grouping Other");
    await sendEvent(server, other.project, { type: "ForeignStay", value: "f", fn: "f" });
    const foreign = await issueByType(other.session, other.project.id, "ForeignStay");
    const crossTenant = await session.mutation("issue.merge", { projectId: project.id, issueIds: [big.id, foreign.id], targetId: foreign.id });
    expect(crossTenant.error?.code).toBe("NOT_FOUND");
    expect((await other.session.query("issue.get", { projectId: other.project.id, issueId: foreign.id })).data.eventCount).toBe(1);
    await untouched();

    const merged = await session.mutation("issue.merge", { projectId: project.id, issueIds: [big.id, small.id], targetId: small.id });
    expect(merged.error).toBeUndefined();
    expect(merged.data).toMatchObject({ id: small.id, title: "StaySmall: small", eventCount: 4 });
    expect(merged.data.activity[0]).toMatchObject({ kind: "merge", from: big.title, to: small.title });
    expect((await session.query("issue.get", scope(big.id))).error?.code).toBe("NOT_FOUND");
    expect(await exceptionCount(small.id)).toBe(4);
    await sendEvent(server, project, { type: "StayBig", value: "big", fn: "big" });
    expect((await session.query("issue.get", scope(small.id))).data.eventCount).toBe(5);
  });

  it("finds similar issues from stored fingerprint parts, over both transports", async () => {
    const { session, project } = tenant;
    const frames = (caller: string) => [
      { function: caller, filename: "/app/routes.js", in_app: true, context_line: "return parseAmount(body);" },
      { function: "parseAmount", filename: "/app/money.js", in_app: true, context_line: "const text = input.amount.trim();" },
    ];
    const send = (type: string, value: string, fn: string) =>
      fetch(`${server.url}/api/${project.number}/store/?sentry_key=${project.apiKey}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ platform: "node", level: "error", exception: { values: [{ type, value, stacktrace: { frames: frames(fn) } }] } }),
      });
    expect((await send("SimilarError", "amount missing for order 1", "checkout")).status).toBe(200);
    // The same crashing frame, another throw (a custom fingerprint keeps it apart, as an SDK would).
    const other = await fetch(`${server.url}/api/${project.number}/store/?sentry_key=${project.apiKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        platform: "node",
        level: "error",
        fingerprint: ["{{ default }}", "eu"],
        exception: { values: [{ type: "OtherError", value: "boom", stacktrace: { frames: frames("refund") } }] },
      }),
    });
    expect(other.status).toBe(200);
    const base = await issueByType(session, project.id, "SimilarError");
    const twin = await issueByType(session, project.id, "OtherError");
    const similar = await session.query("issue.similar", scope(base.id));
    expect(similar.error).toBeUndefined();
    expect(similar.data).toEqual([expect.objectContaining({ issue: expect.objectContaining({ id: twin.id }), reasons: ["crashFrame"] })]);
    const rest = await session.request(`${issuesPath()}/${base.id}/similar`);
    expect(rest.status).toBe(200);
    expect(rest.body.map((s: { issue: { id: string } }) => s.issue.id)).toEqual([twin.id]);
    const unrelated = await issueByType(session, project.id, "RestY");
    expect((await session.query("issue.similar", scope(unrelated.id))).data.map((s: { issue: { id: string } }) => s.issue.id)).not.toContain(base.id);
  });

  it("merges and splits issues made before grouping v2 (no fingerprint rows, events without fingerprint)", async () => {
    const { session, project } = tenant;
    await sendEvents(server, project, [
      { type: "LegacyL", value: "l", fn: "l" },
      { type: "LegacyL", value: "l", fn: "l" },
      { type: "LegacyM", value: "m", fn: "m" },
    ]);
    const l = await issueByType(session, project.id, "LegacyL");
    const m = await issueByType(session, project.id, "LegacyM");
    const ids = [l.id, m.id];
    const db = server.database.db;
    await db.delete(issueFingerprints).where(inArray(issueFingerprints.issueId, ids));
    await db.update(occurrences).set({ fingerprint: null }).where(inArray(occurrences.issueId, ids));
    await db.update(issues).set({ groupingVersion: 1 }).where(inArray(issues.id, ids));

    const caller = await callerFor(server, session);
    const before = await caller.issue.fingerprints(scope(m.id));
    expect(before).toEqual([expect.objectContaining({ groupingVersion: 1, components: null, primary: true, eventCount: 1 })]);
    const merged = await caller.issue.merge({ projectId: project.id, issueIds: ids });
    expect(merged).toMatchObject({ id: l.id, eventCount: 3 });
    const prints = await caller.issue.fingerprints(scope(l.id));
    expect(prints.map((p) => p.eventCount).sort()).toEqual([1, 2]);
    const mPrint = prints.find((p) => !p.primary)!.fingerprint;
    const [split] = await caller.issue.unmerge({ ...scope(l.id), fingerprints: [mPrint] });
    expect(split).toMatchObject({ title: "LegacyM: m", eventCount: 1 });
    expect((await caller.issue.get(scope(l.id))).eventCount).toBe(2);
    await sendEvent(server, project, { type: "LegacyM", value: "m", fn: "m" });
    expect((await caller.issue.get(scope(split.id))).eventCount).toBe(2);
  });

  it("lets a plain member merge, and refuses a role outside the table", async () => {
    const { project } = tenant;
    await sendEvents(server, project, [
      { type: "RoleP", value: "p", fn: "p" },
      { type: "RoleQ", value: "q", fn: "q" },
    ]);
    const p = await issueByType(tenant.session, project.id, "RoleP");
    const q = await issueByType(tenant.session, project.id, "RoleQ");
    const helper = await signUpVerified(server, { name: "Viewer" });
    await server.database.db.insert(member).values({ organizationId: tenant.org.id, userId: helper.userId, role: "viewer", createdAt: new Date() });
    await helper.session.request("/api/auth/organization/set-active", { body: { organizationId: tenant.org.id } });
    const refused = await helper.session.mutation("issue.merge", { projectId: project.id, issueIds: [p.id, q.id] });
    expect(refused.error?.code).toBe("FORBIDDEN");
    const refusedRest = await helper.session.request(`${issuesPath()}/merge`, { body: { issueIds: [p.id, q.id] } });
    expect(refusedRest.status).toBe(403);
    // Reading stays open to the role.
    expect((await helper.session.query("issue.fingerprints", scope(p.id))).error).toBeUndefined();
    await server.database.db.update(member).set({ role: "member" }).where(eq(member.userId, helper.userId));
    const allowed = await helper.session.mutation("issue.merge", { projectId: project.id, issueIds: [p.id, q.id] });
    expect(allowed.error).toBeUndefined();
  });
});
