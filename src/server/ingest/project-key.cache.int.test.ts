import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY_REVOCATION_SECONDS } from "../../shared/ingest-keys";
import { projectKeys, projects } from "../db/schema/index";
import { ProjectKeyCache } from "./project-key.cache";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";

/** Revocations reach ingest at once in this process, and within KEY_REVOCATION_SECONDS from any other. */
describe("ProjectKeyCache", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };
  const revokeInDatabase = (publicKey: string) => database.db.update(projectKeys).set({ revokedAt: new Date() }).where(eq(projectKeys.publicKey, publicKey));

  it("trusts a valid key for at most KEY_REVOCATION_SECONDS when another replica revokes it", async () => {
    const project = await seedProject(database.db, "other-replica");
    const time = clock();
    const cache = new ProjectKeyCache(database.db, time.now);
    expect(await cache.lookup(project.publicKey)).toMatchObject({ projectId: project.projectId });
    await revokeInDatabase(project.publicKey);
    time.advance(KEY_REVOCATION_SECONDS * 1000 - 1);
    expect(await cache.lookup(project.publicKey)).not.toBeNull();
    time.advance(1);
    expect(await cache.lookup(project.publicKey)).toBeNull();
    expect(KEY_REVOCATION_SECONDS).toBeLessThanOrEqual(10);
  });

  it("forgets a key revoked in this process at once", async () => {
    const project = await seedProject(database.db, "revoked-here");
    const cache = new ProjectKeyCache(database.db, clock().now);
    expect(await cache.lookup(project.publicKey)).not.toBeNull();
    await revokeInDatabase(project.publicKey);
    cache.keysRevoked([project.publicKey]);
    expect(await cache.lookup(project.publicKey)).toBeNull();
  });

  it("forgets every key of a project deleted in this process at once, and only those", async () => {
    const deleted = await seedProject(database.db, "deleted-here");
    const kept = await seedProject(database.db, "kept");
    const cache = new ProjectKeyCache(database.db, clock().now);
    await cache.lookup(deleted.publicKey);
    await cache.lookup(kept.publicKey);
    await database.db.delete(projects).where(eq(projects.id, deleted.projectId));
    const before = cache.queries;
    cache.projectDeleted(deleted.projectId);
    expect(await cache.lookup(deleted.publicKey)).toBeNull();
    expect(await cache.lookup(kept.publicKey)).not.toBeNull();
    expect(cache.queries - before).toBe(1);
  });

  it("does not cache what a lookup running across a revocation read", async () => {
    const project = await seedProject(database.db, "racing");
    const cache = new ProjectKeyCache(database.db, clock().now);
    const racing = cache.lookup(project.publicKey);
    await revokeInDatabase(project.publicKey);
    cache.keysRevoked([project.publicKey]);
    await racing;
    expect(await cache.lookup(project.publicKey)).toBeNull();
  });

  it("remembers unknown keys for a minute (negative cache)", async () => {
    const time = clock();
    const cache = new ProjectKeyCache(database.db, time.now);
    await cache.lookup("f".repeat(32));
    time.advance(59_000);
    await cache.lookup("f".repeat(32));
    expect(cache.queries).toBe(1);
    time.advance(1_000);
    await cache.lookup("f".repeat(32));
    expect(cache.queries).toBe(2);
  });
});
