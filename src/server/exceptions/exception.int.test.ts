import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createTriageProject, hoursAgo, issueByType, sendEvent, sendEvents, triageTenant } from "../../../test/helpers/triage-seed";

describe("exceptions", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;
  let issueId: string;
  let eventIds: string[];
  const base = () => `/api/v1/organizations/${tenant.org.id}/projects/${tenant.project.id}/exceptions`;

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await triageTenant(server, "Exceptions");
    // Sent one after another: received_at (the list order) grows with each.
    eventIds = await sendEvents(
      server,
      tenant.project,
      [0, 1, 2, 3, 4].map((n) => ({
        type: "PagedError",
        value: `paged ${n}`,
        fn: "paged",
        environment: n === 4 ? "staging" : "production",
        user: { id: `user-${n}`, email: `u${n}@shop.example` },
        tags: { n: String(n) },
        timestamp: hoursAgo(10 - n),
      })),
    );
    await sendEvent(server, tenant.project, { type: "OtherError", value: "other", fn: "other" });
    issueId = (await issueByType(tenant.session, tenant.project.id, "PagedError")).id;
  });
  afterAll(() => server.close());

  it("lists an issue's exceptions newest first, paged, with the original fields", async () => {
    const page1 = await tenant.session.query("exception.list", { projectId: tenant.project.id, issueId, size: 2 });
    expect(page1.error).toBeUndefined();
    expect(page1.data.items.map((item: { eventId: string }) => item.eventId)).toEqual([eventIds[4], eventIds[3]]);
    expect(page1.data.meta).toEqual({ itemCount: 2, totalItems: 5, itemsPerPage: 2, totalPages: 3, currentPage: 1 });
    expect(page1.data.items[0]).toMatchObject({
      issueId,
      environment: "STAGING",
      environmentName: "staging",
      platform: "node",
      level: "error",
      name: "PagedError",
      message: "paged 4",
    });
    expect(page1.data.items[0].createdAt).toBeInstanceOf(Date);
    expect(page1.data.items[0]).not.toHaveProperty("data");

    const page3 = await tenant.session.request(`${base()}?issueId=${issueId}&page=3&size=2`);
    expect(page3.status).toBe(200);
    expect(page3.body.items.map((item: { eventId: string }) => item.eventId)).toEqual([eventIds[0]]);
    const oldest = await tenant.session.request(`${base()}?issueId=${issueId}&sort=createdAt:ASC&size=1`);
    expect(oldest.body.items[0].eventId).toBe(eventIds[0]);
    expect((await tenant.session.request(`${base()}?issueId=${issueId}&size=101`)).status).toBe(400);
  });

  it("defaults to size 10 and lists the whole project without issueId", async () => {
    const all = await tenant.session.request(`${base()}?issueId=&page=`);
    expect(all.status).toBe(200);
    expect(all.body.meta).toEqual({ itemCount: 6, totalItems: 6, itemsPerPage: 10, totalPages: 1, currentPage: 1 });
    expect(all.body.items[0].name).toBe("OtherError");
  });

  it("answers one exception with the whole stored occurrence", async () => {
    const [latest] = (await tenant.session.query("exception.list", { projectId: tenant.project.id, issueId, size: 1 })).data.items;
    const detail = await tenant.session.query("exception.get", { projectId: tenant.project.id, exceptionId: latest.id });
    expect(detail.error).toBeUndefined();
    const data = detail.data.data;
    expect(data.eventId).toBe(eventIds[4]);
    expect(data.exceptions[0]).toMatchObject({ type: "PagedError", value: "paged 4" });
    expect(data.exceptions[0].frames.at(-1)).toMatchObject({
      function: "paged",
      lineno: 42,
      contextLine: "  throw new Error(x);",
      preContext: ["function f() {"],
      inApp: true,
    });
    expect(data.request).toMatchObject({ url: "https://shop.example/checkout", method: "POST" });
    expect(data.user).toMatchObject({ id: "user-4", email: "u4@shop.example" });
    expect(data.tags).toEqual({ n: "4" });
    expect(data.breadcrumbs[0]).toMatchObject({ category: "http", message: "GET /cart" });
    expect(data.contexts.runtime).toMatchObject({ name: "node" });

    const viaRest = await tenant.session.request(`${base()}/${latest.id}`);
    expect(viaRest.status).toBe(200);
    expect(viaRest.body.data).toEqual(JSON.parse(JSON.stringify(data)));
    expect(viaRest.body.eventId).toBe(eventIds[4]);
  });

  /** Issue 37, item 12: the exception screen lists the exception's own tags, not its issue's aggregate. */
  it("answers the exception's own tags: what the issue's breakdown counted for it, over both transports", async () => {
    const { session, project } = tenant;
    const [first] = (await session.query("exception.list", { projectId: project.id, issueId, size: 5, sort: "createdAt:ASC" })).data.items;
    expect(first.eventId).toBe(eventIds[0]);
    const detail = await session.query("exception.get", { projectId: project.id, exceptionId: first.id });
    expect(detail.error).toBeUndefined();
    expect(detail.data.tags).toEqual([
      { key: "environment", value: "production" },
      { key: "level", value: "error" },
      { key: "n", value: "0" },
    ]);
    // The issue's breakdown holds every exception's values; the exception only its own.
    // Tag counts reach the database about once a second (TagCountBuffer).
    const issueTags = async () => (await session.query("issue.get", { projectId: project.id, issueId })).data.tags as { key: string; values: unknown[] }[];
    await expect.poll(async () => (await issueTags()).find((tag) => tag.key === "n")?.values.length).toBe(5);
    const issue = { tags: await issueTags() };
    expect(issue.tags.map((tag: { key: string }) => tag.key)).toEqual(expect.arrayContaining(detail.data.tags.map((tag: { key: string }) => tag.key)));
    const viaRest = await session.request(`${base()}/${first.id}`);
    expect(viaRest.body.tags).toEqual(detail.data.tags);
  });

  it("answers NOT_FOUND for a missing exception, an issue or exception of a sibling project, and bad ids with 400", async () => {
    const { session, project } = tenant;
    const missing = await session.request(`${base()}/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("Exception not found");
    const sibling = await createTriageProject(session, "Sibling");
    await sendEvent(server, sibling, { type: "SiblingError", value: "s", fn: "sibling" });
    const [siblingException] = (await session.query("exception.list", { projectId: sibling.id })).data.items;
    expect((await session.query("exception.get", { projectId: project.id, exceptionId: siblingException.id })).error?.code).toBe("NOT_FOUND");
    expect((await session.query("exception.list", { projectId: project.id, issueId: siblingException.issueId })).error?.code).toBe("NOT_FOUND");
    expect((await session.request(`${base()}/not-a-uuid`)).status).toBe(400);
  });

  it("leaves a deleted issue's occurrences out of the project-wide list before the deletion job removes them", async () => {
    const { session, project } = tenant;
    const other = await issueByType(session, project.id, "OtherError");
    // The state between a deletion's request (the issue marked) and its job reaching the occurrences.
    await server.database.db.execute(sql`update issues set deletion_id = gen_random_uuid() where id = ${other.id}::uuid`);
    const all = await session.request(`${base()}?size=10`);
    expect(all.status).toBe(200);
    expect(all.body.items.map((item: { eventId: string }) => item.eventId)).toEqual([...eventIds].reverse());
    expect(all.body.meta.totalItems).toBe(5);
  });
});
