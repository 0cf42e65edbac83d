import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { sqlStateOf } from "../ingest/store/database-errors";
import { partitionNameOf, type PartitionedTable } from "./partitioned-tables";
import { addDays, assertDay } from "./utc-days";

/** One day's partition as the catalog lists it. */
export interface DailyPartition {
  name: string;
  day: string;
}

/**
 * DDL waits at most this long for a lock: attaching and detaching a partition briefly locks the
 * parent against ingest's inserts, and waiting behind a long reader would hold ingest up behind it.
 * A step that times out is retried by the next maintenance run.
 */
const DDL_LOCK_TIMEOUT = "5s";

/** The day partitions of a table, oldest first. */
export async function listDailyPartitions(db: Db, table: PartitionedTable): Promise<DailyPartition[]> {
  const rows = await executeRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_inherits i
          join pg_class c on c.oid = i.inhrelid
          join pg_class p on p.oid = i.inhparent
         where p.relname = ${table.name} and p.relnamespace = (select oid from pg_namespace where nspname = current_schema())`,
  );
  const pattern = new RegExp(`^${table.name}_p(\\d{4})(\\d{2})(\\d{2})$`);
  return rows
    .flatMap((row) => {
      const match = pattern.exec(row.name);
      return match ? [{ name: row.name, day: `${match[1]}-${match[2]}-${match[3]}` }] : [];
    })
    .sort((a, b) => a.day.localeCompare(b.day));
}

/** A day as a partition bound of the table's key (DDL takes no parameters; assertDay vets the text). */
export function dayBound(table: PartitionedTable, day: string) {
  return sql.raw(table.keyType === "date" ? `'${assertDay(day)}'::date` : `'${assertDay(day)} 00:00:00+00'::timestamptz`);
}

/**
 * Gives each of `days` its own partition, returning the days created. The table is created
 * standalone and then attached, which builds its indexes and foreign keys: ATTACH takes a SHARE
 * UPDATE EXCLUSIVE lock on the parent, which ingest's inserts do not wait for, where CREATE TABLE …
 * PARTITION OF would take an exclusive one.
 */
export async function ensureDailyPartitions(db: Db, table: PartitionedTable, days: string[]): Promise<string[]> {
  const existing = new Set((await listDailyPartitions(db, table)).map((partition) => partition.day));
  const created: string[] = [];
  for (const day of [...new Set(days)].sort()) {
    if (existing.has(day)) continue;
    if (await createDailyPartition(db, table, day)) created.push(day);
  }
  return created;
}

async function createDailyPartition(db: Db, table: PartitionedTable, day: string): Promise<boolean> {
  const parent = sql.identifier(table.name);
  const partition = sql.identifier(partitionNameOf(table, day));
  const key = sql.identifier(table.key);
  const [from, to] = [dayBound(table, day), dayBound(table, addDays(day, 1))];
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = '${DDL_LOCK_TIMEOUT}'`));
      await tx.execute(sql`create table ${partition} (like ${parent} including defaults including constraints including storage including compression)`);
      // Stated on the table before it is attached, so ATTACH need not scan it to prove it.
      await tx.execute(
        sql`alter table ${partition} add constraint ${sql.identifier(`${partitionNameOf(table, day)}_day`)} check (${key} >= ${from} and ${key} < ${to})`,
      );
      await tx.execute(sql`alter table ${parent} attach partition ${partition} for values from (${from}) to (${to})`);
    });
    return true;
  } catch (error) {
    // Another runner created it first (42P07, duplicate table): it exists, which is what was asked.
    if (sqlStateOf(error) === "42P07") return false;
    throw error;
  }
}

/** Rows of a partition (what a dropped day took with it). */
export async function countPartitionRows(db: Db, name: string): Promise<number> {
  const [row] = await executeRows<{ n: number | string }>(db, sql`select count(*) as n from ${sql.identifier(name)}`);
  return Number(row?.n ?? 0);
}

/** Detaches and drops one day's partition: the whole day goes at once, whatever its size. */
export async function dropDailyPartition(db: Db, table: PartitionedTable, name: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local lock_timeout = '${DDL_LOCK_TIMEOUT}'`));
    await tx.execute(sql`alter table ${sql.identifier(table.name)} detach partition ${sql.identifier(name)}`);
    await tx.execute(sql`drop table ${sql.identifier(name)}`);
  });
}
