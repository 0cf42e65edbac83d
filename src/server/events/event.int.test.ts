import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { sendAnalyticsEvent, triageTenant } from "../../../test/helpers/triage-seed";

describe("events list", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;
  let between: Date;
  const list = (input: Record<string, unknown> = {}) => tenant.session.query("event.list", { projectId: tenant.project.id, ...input });
  const rest = (search = "") => tenant.session.request(`/api/v1/organizations/${tenant.org.id}/projects/${tenant.project.id}/events${search}`);

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await triageTenant(server, "Events");
    for (let n = 0; n < 8; n++) await sendAnalyticsEvent(server, tenant.project, "page_view", { n });
    await new Promise((resolve) => setTimeout(resolve, 20));
    between = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (let n = 8; n < 12; n++) await sendAnalyticsEvent(server, tenant.project, "checkout", { n, cart: { items: n } });
  });
  afterAll(() => server.close());

  it("sorts by createdAt:DESC with pages of 10 by default", async () => {
    const { data, error } = await list();
    expect(error).toBeUndefined();
    expect(data.items.map((item: { properties: { n: number } }) => item.properties.n)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    expect(data.meta).toEqual({ itemCount: 10, totalItems: 12, itemsPerPage: 10, totalPages: 2, currentPage: 1 });
    expect(data.items[0]).toMatchObject({ projectId: tenant.project.id, name: "checkout", properties: { n: 11, cart: { items: 11 } } });
    expect(data.items[0].createdAt).toBeInstanceOf(Date);
    const page2 = await rest("?page=2");
    expect(page2.body.items.map((item: { properties: { n: number } }) => item.properties.n)).toEqual([1, 0]);
  });

  it("filters by exact name and by date, and sorts by name", async () => {
    expect((await list({ name: "checkout" })).data.meta.totalItems).toBe(4);
    expect((await list({ name: "check" })).data.meta.totalItems).toBe(0);
    expect((await list({ dateFrom: between })).data.items.every((item: { name: string }) => item.name === "checkout")).toBe(true);
    expect((await rest(`?dateTo=${between.toISOString()}`)).body.meta.totalItems).toBe(8);
    expect((await rest(`?dateFrom=${between.toISOString()}&name=page_view`)).body.meta.totalItems).toBe(0);
    const byName = await rest("?sort=name:ASC,createdAt:ASC&size=5");
    expect(byName.body.items.map((item: { name: string; properties: { n: number } }) => `${item.name}${item.properties.n}`)).toEqual([
      "checkout8",
      "checkout9",
      "checkout10",
      "checkout11",
      "page_view0",
    ]);
    const unknown = await rest("?sort=properties:ASC");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("Allowed: createdAt, name");
    expect((await rest("?name=&dateFrom=")).body.meta.totalItems).toBe(12);
  });
});
