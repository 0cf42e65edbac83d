import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import { DataSettingsCache } from "./data-settings.cache";
import { upsertDataSettingsLayer } from "./data-settings.queries";

const LAYER = { retentionDays: null, scrubDefaults: null, storeIpAddresses: null, sensitiveFields: null, safeFields: null, rules: null };

describe("DataSettingsCache", () => {
  let database: TestDatabase;
  let a: Awaited<ReturnType<typeof seedProject>>;
  let b: Awaited<ReturnType<typeof seedProject>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    a = await seedProject(database.db, "cache-a");
    b = await seedProject(database.db, "cache-b");
  });
  afterAll(() => database.destroy());

  it("reads a project's settings once per TTL, resolves organization then project, and forgets at once when told of a change", async () => {
    let now = 0;
    const cache = new DataSettingsCache(database.db, "s".repeat(32), () => now);
    await upsertDataSettingsLayer(database.db, a.organizationId, null, { ...LAYER, storeIpAddresses: false, sensitiveFields: ["phone"] });
    await upsertDataSettingsLayer(database.db, a.organizationId, a.projectId, { ...LAYER, sensitiveFields: ["iban"] });

    const first = await cache.forProject(a.organizationId, a.projectId);
    expect(first).toMatchObject({ scrubDefaults: true, storeIpAddresses: false, sensitiveFields: ["iban"], safeFields: [], rules: [] });
    await cache.forProject(a.organizationId, a.projectId);
    expect(cache.queries).toBe(1);

    // Another process's change is seen once the entry expires.
    await upsertDataSettingsLayer(database.db, a.organizationId, a.projectId, { ...LAYER, sensitiveFields: ["email"] });
    expect((await cache.forProject(a.organizationId, a.projectId)).sensitiveFields).toEqual(["iban"]);
    now += 5_001;
    expect((await cache.forProject(a.organizationId, a.projectId)).sensitiveFields).toEqual(["email"]);
    expect(cache.queries).toBe(2);

    // This process's change: at once, for the project or every project of the organization.
    await upsertDataSettingsLayer(database.db, a.organizationId, null, { ...LAYER, storeIpAddresses: true });
    cache.changed(a.organizationId, null);
    expect((await cache.forProject(a.organizationId, a.projectId)).storeIpAddresses).toBe(true);
    expect(cache.queries).toBe(3);
  });

  it("keys hashes per organization: the same secret gives two organizations different keys", async () => {
    const cache = new DataSettingsCache(database.db, "s".repeat(32));
    const [one, other] = await Promise.all([cache.forProject(a.organizationId, a.projectId), cache.forProject(b.organizationId, b.projectId)]);
    expect(one.hashKey).toMatch(/^[0-9a-f]{64}$/);
    expect(one.hashKey).not.toBe(other.hashKey);
    expect(other).toMatchObject({ scrubDefaults: true, storeIpAddresses: true, sensitiveFields: [] });
  });
});
