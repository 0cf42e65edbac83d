import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import type { SweptTable } from "./deletion-tables";

const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);

/**
 * Deletes at most `limit` rows of `table` matching `where`, by primary key: each statement is a
 * short transaction of its own that locks only the rows it removes, so ingest into other projects
 * (and this one's readers) never wait behind a deletion. Answers how many went.
 */
export async function deleteBatch(db: Db, table: SweptTable, where: SQL, limit: number): Promise<number> {
  const name = ident(table.name);
  if (table.key.length === 0) {
    // No key to name rows by: a small table (none of the big ones lacks a key); one statement.
    const rows = await executeRows<{ one: number }>(db, sql`delete from ${name} where ${where} returning 1 as one`);
    return rows.length;
  }
  const key = sql.join(table.key.map(ident), sql`, `);
  const rows = await executeRows<{ one: number }>(
    db,
    sql`delete from ${name} where (${key}) in (select ${key} from ${name} where ${where} limit ${limit}) returning 1 as one`,
  );
  return rows.length;
}

/** Lets ingest's statements and the event loop's other work in between two batches. */
export const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Deletes every row of `table` matching `where`, batch after batch, calling `progress` with each
 * batch's count (committed already: a crash between batches loses nothing, a rerun goes on).
 */
export async function deleteAll(db: Db, table: SweptTable, where: SQL, limit: number, progress: (count: number) => Promise<void>): Promise<void> {
  for (;;) {
    const count = await deleteBatch(db, table, where, limit);
    if (count > 0) await progress(count);
    if (count < limit || table.key.length === 0) return;
    await yieldTurn();
  }
}
