import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { sqlStateOf } from "../ingest/store/database-errors";
import { partitionNameOf, type PartitionedTable } from "./partitioned-tables";
import { addDays, assertDay, weekStartOf } from "./utc-days";

/**
 * Partitions hold a week, Monday to Sunday (UTC), as Sentry's ClickHouse tables do: at a 90-day
 * retention about 14 of them, not about 100 — the planner weighs every partition of a read that
 * cannot prune (a page of a list: 7.5 ms of planning at 98 daily partitions against 1 ms of
 * execution, measured), and a 10-year retention stays at ~520. A week partly past a project's
 * retention is the edge, deleted in batches (retention-sweep.ts).
 */
export const PARTITION_DAYS = 7;

/** One week's partition as the catalog lists it: its first day (a Monday) and the day after its last. */
export interface WeekPartition {
  name: string;
  start: string;
  end: string;
}

/**
 * DDL waits at most this long for its locks: DETACH locks the parent exclusively, and attaching
 * or dropping a week adds or removes its foreign keys' triggers on projects and issues. Waiting
 * behind a long transaction would hold ingest up in the lock queue behind it, so a step that
 * times out gives up and the next maintenance run (an hour later) tries again.
 */
const DDL_LOCK_TIMEOUT = "1s";

/** The week partitions of a table, oldest first. */
export async function listPartitions(db: Db, table: PartitionedTable): Promise<WeekPartition[]> {
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
      if (!match) return [];
      const start = `${match[1]}-${match[2]}-${match[3]}`;
      return [{ name: row.name, start, end: addDays(start, PARTITION_DAYS) }];
    })
    .sort((a, b) => a.start.localeCompare(b.start));
}

/** A day as a partition bound of the table's key (DDL takes no parameters; assertDay vets the text). */
export function dayBound(table: PartitionedTable, day: string) {
  return sql.raw(table.keyType === "date" ? `'${assertDay(day)}'::date` : `'${assertDay(day)} 00:00:00+00'::timestamptz`);
}

/**
 * Gives the week of each of `days` its partition, returning the weeks created (their Mondays). The table is created
 * standalone and then attached, which builds its indexes and foreign keys: ATTACH takes a SHARE
 * UPDATE EXCLUSIVE lock on the parent, which ingest's inserts do not wait for, where CREATE TABLE …
 * PARTITION OF would take an exclusive one.
 */
export async function ensurePartitionsFor(db: Db, table: PartitionedTable, days: string[]): Promise<string[]> {
  const existing = new Set((await listPartitions(db, table)).map((partition) => partition.start));
  const created: string[] = [];
  for (const week of [...new Set(days.map(weekStartOf))].sort()) {
    if (existing.has(week)) continue;
    if (await createWeekPartition(db, table, week)) created.push(week);
  }
  return created;
}

async function createWeekPartition(db: Db, table: PartitionedTable, week: string): Promise<boolean> {
  const parent = sql.identifier(table.name);
  const partition = sql.identifier(partitionNameOf(table, week));
  const key = sql.identifier(table.key);
  const [from, to] = [dayBound(table, week), dayBound(table, addDays(week, PARTITION_DAYS))];
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = '${DDL_LOCK_TIMEOUT}'`));
      await tx.execute(sql`create table ${partition} (like ${parent} including defaults including constraints including storage including compression)`);
      // Stated on the table before it is attached, so ATTACH need not scan it to prove it.
      await tx.execute(
        sql`alter table ${partition} add constraint ${sql.identifier(`${partitionNameOf(table, week)}_week`)} check (${key} >= ${from} and ${key} < ${to})`,
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

/** Rows of a partition (what a dropped week took with it). */
export async function countPartitionRows(db: Db, name: string): Promise<number> {
  const [row] = await executeRows<{ n: number | string }>(db, sql`select count(*) as n from ${sql.identifier(name)}`);
  return Number(row?.n ?? 0);
}

/** Detaches and drops one week's partition: the whole week goes at once, whatever its size. */
export async function dropPartition(db: Db, table: PartitionedTable, name: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local lock_timeout = '${DDL_LOCK_TIMEOUT}'`));
    await tx.execute(sql`alter table ${sql.identifier(table.name)} detach partition ${sql.identifier(name)}`);
    await tx.execute(sql`drop table ${sql.identifier(name)}`);
  });
}
