import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "./client";
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
    const [row] = await executeRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from information_schema.tables where table_name in ('users', 'projects', 'issues', 'occurrences')`,
    );
    expect(row.n).toBe(4);
  });

  it.runIf(TEST_DATABASE_URL)("compresses stored events with lz4 on PostgreSQL", async () => {
    const [row] = await executeRows<{ compression: string }>(
      database.db,
      sql`select attcompression as compression from pg_attribute where attrelid = 'occurrences'::regclass and attname = 'data'`,
    );
    expect(row.compression).toBe("l");
  });

  it.runIf(TEST_DATABASE_URL)("runs hot statements as named prepared statements, unless the URL says ?prepare=false", async () => {
    const probe = (n: number) => sql`select (${JSON.stringify({ n })}::json ->> 'n')::int as n /* prepared-probe */`;
    const run = async (single: Database) => {
      expect(await single.executePrepared<{ n: number }>(probe(1))).toEqual([{ n: 1 }]);
      expect(await single.executePrepared<{ n: number }>(probe(2))).toEqual([{ n: 2 }]);
    };
    expect(await preparedStatementsAfter(database.url!, "prepared-probe", run)).toBe(1);
    expect(await preparedStatementsAfter(withoutPrepare(database.url!), "prepared-probe", run)).toBe(0);
  });

  it.runIf(TEST_DATABASE_URL)("prepares drizzle's own queries per connection too, unless the URL says ?prepare=false", async () => {
    const run = async (single: Database) => {
      for (const n of [1, 2]) expect(await executeRows<{ n: number }>(single.db, sql`select ${n}::int as n /* drizzle-probe */`)).toEqual([{ n }]);
    };
    expect(await preparedStatementsAfter(database.url!, "drizzle-probe", run)).toBe(1);
    expect(await preparedStatementsAfter(withoutPrepare(database.url!), "drizzle-probe", run)).toBe(0);
  });
});

/** How many statements marked `marker` a one-connection client has prepared after `run` (the session view sees only its own). */
async function preparedStatementsAfter(url: string, marker: string, run: (single: Database) => Promise<void>) {
  const single = createDatabase({ databaseUrl: url, pgliteDataDir: "", maxConnections: 1 });
  try {
    await run(single);
    const [row] = await executeRows<{ n: number }>(
      single.db,
      sql`select count(*)::int as n from pg_prepared_statements where statement like ${`%${marker}%`} and statement not like '%pg_prepared_statements%'`,
    );
    return row.n;
  } finally {
    await single.close();
  }
}

function withoutPrepare(url: string) {
  const unprepared = new URL(url);
  unprepared.searchParams.set("prepare", "false");
  return unprepared.toString();
}
