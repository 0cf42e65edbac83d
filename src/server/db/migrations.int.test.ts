import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { latestKnownMigration, NewerSchemaError } from "./migrations";

describe("migrations on a database a newer build migrated (both engines)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.destroy());

  it("re-applying is a no-op, and a migration later than this build's journal is refused by name", async () => {
    await database.migrate();
    const known = latestKnownMigration();
    await database.db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-build', ${known.when + 60_000})`);
    try {
      const refused = await database.migrate().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(NewerSchemaError);
      expect((refused as Error).message).toContain(`database has migration ${String(known.idx + 1).padStart(4, "0")}, this build knows up to`);
    } finally {
      // The reused PGlite keeps the drizzle schema for the worker's next suite.
      await database.db.execute(sql`delete from drizzle.__drizzle_migrations where hash = 'from-a-newer-build'`);
    }
  });
});
