/**
 * listProjectRetention (issue 35): the retention the maintenance job enforces for every project —
 * product default, organization, project, the plan's cap on the hosted deployment — in one
 * statement, leaving out projects being deleted.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTED_ENV_WITHOUT_STRIPE } from "../../../test/helpers/billing-server";
import { seedProject } from "../../../test/helpers/seed";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { projects, subscriptions } from "../db/schema/index";
import { parseEnv } from "../env";
import type { DataSettingsLayer } from "../../shared/data-settings.views";
import { upsertDataSettingsLayer } from "./data-settings.queries";
import { listProjectRetention } from "./project-retention";

const layer = (retentionDays: number | null): DataSettingsLayer => ({
  retentionDays,
  scrubDefaults: null,
  storeIpAddresses: null,
  sensitiveFields: null,
  safeFields: null,
  rules: null,
});

describe("listProjectRetention", () => {
  let database: TestDatabase;
  // untouched: nothing set; orgWide: the organization says 45, one project overrides with 400;
  // plus: an organization on plus asking 200 days; deleted: a project being deleted.
  let untouched: Awaited<ReturnType<typeof seedProject>>;
  let orgWide: Awaited<ReturnType<typeof seedProject>>;
  let override: { organizationId: string; projectId: string };
  let plus: Awaited<ReturnType<typeof seedProject>>;
  let deleted: Awaited<ReturnType<typeof seedProject>>;
  const retentionOf = (list: Awaited<ReturnType<typeof listProjectRetention>>, projectId: string) =>
    list.find((row) => row.projectId === projectId)?.retentionDays;

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.db;
    untouched = await seedProject(db, "retention-untouched");
    orgWide = await seedProject(db, "retention-org");
    const [second] = await db
      .insert(projects)
      .values({ organizationId: orgWide.organizationId, name: "second", slug: "second", platform: "NODE_JS" })
      .returning();
    override = { organizationId: orgWide.organizationId, projectId: second.id };
    await upsertDataSettingsLayer(db, orgWide.organizationId, null, layer(45));
    await upsertDataSettingsLayer(db, orgWide.organizationId, override.projectId, layer(400));
    // A project layer that sets only scrubbing inherits the organization's days.
    await upsertDataSettingsLayer(db, orgWide.organizationId, orgWide.projectId, { ...layer(null), scrubDefaults: false });

    plus = await seedProject(db, "retention-plus");
    await upsertDataSettingsLayer(db, plus.organizationId, null, layer(200));
    await db.insert(subscriptions).values({ id: `sub_${randomUUID()}`, organizationId: plus.organizationId, plan: "plus", status: "active" });

    deleted = await seedProject(db, "retention-deleted");
    await db.update(projects).set({ deletionId: randomUUID() }).where(eq(projects.id, deleted.projectId));
  });
  afterAll(() => database.destroy());

  it("self-hosted: product default, then the organization's days, then the project's; no cap; projects being deleted left out", async () => {
    const list = await listProjectRetention(database.db, parseEnv({ RETENTION_DAYS: "120" }));
    expect(retentionOf(list, untouched.projectId)).toBe(120);
    expect(retentionOf(list, orgWide.projectId)).toBe(45);
    expect(retentionOf(list, override.projectId)).toBe(400);
    expect(retentionOf(list, plus.projectId)).toBe(200);
    expect(list.find((row) => row.projectId === deleted.projectId)).toBeUndefined();
    expect(list.find((row) => row.projectId === override.projectId)).toEqual({ ...override, retentionDays: 400 });
    expect(new Set(list.map((row) => row.projectId)).size).toBe(list.length);
  });

  it("defaults to 90 days when RETENTION_DAYS is unset", async () => {
    expect(retentionOf(await listProjectRetention(database.db, parseEnv({})), untouched.projectId)).toBe(90);
  });

  it("on the hosted deployment caps every project by its organization's plan, the default included", async () => {
    const env = parseEnv({ ...HOSTED_ENV_WITHOUT_STRIPE, PLAN_FREE_RETENTION_DAYS: "30", PLAN_PLUS_RETENTION_DAYS: "180" });
    const list = await listProjectRetention(database.db, env);
    expect(retentionOf(list, untouched.projectId)).toBe(30);
    expect(retentionOf(list, orgWide.projectId)).toBe(30);
    expect(retentionOf(list, override.projectId)).toBe(30);
    expect(retentionOf(list, plus.projectId)).toBe(180);

    // Below the cap the chosen days apply as they are.
    await upsertDataSettingsLayer(database.db, orgWide.organizationId, override.projectId, layer(7));
    expect(retentionOf(await listProjectRetention(database.db, env), override.projectId)).toBe(7);
    // A canceled subscription is the free plan again.
    await database.db.update(subscriptions).set({ status: "canceled" }).where(eq(subscriptions.organizationId, plus.organizationId));
    expect(retentionOf(await listProjectRetention(database.db, env), plus.projectId)).toBe(30);
  });
});
