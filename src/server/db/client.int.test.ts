import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeRows } from "./execute";
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../../../test/helpers/test-database";

describe("database start-up", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  it("applies the migrations idempotently", async () => {
    await database.migrate();
    const [row] = await executeRows<{ n: number }>(database.db, sql`select count(*)::int as n from information_schema.tables where table_name in ('users', 'projects', 'issues', 'occurrences')`);
    expect(row.n).toBe(4);
  });

  it.runIf(TEST_DATABASE_URL)("compresses stored events with lz4 on PostgreSQL", async () => {
    const [row] = await executeRows<{ compression: string }>(
      database.db,
      sql`select attcompression as compression from pg_attribute where attrelid = 'occurrences'::regclass and attname = 'data'`,
    );
    expect(row.compression).toBe("l");
  });
});
