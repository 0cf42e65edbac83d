import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { ensurePartitionsFor } from "./week-partitions";
import { PARTITIONED_TABLES, type PartitionedTable } from "./partitioned-tables";
import { addDays, dayOf, daysBetween } from "./utc-days";

export type ProgressLog = (message: string, fields: Record<string, unknown>) => void;

/** Rows moved per statement: each batch is its own transaction, so a crash loses no work. */
const MOVE_BATCH = 5_000;
/** Days given their partition at start, beyond today (the maintenance job keeps this lead): the next week always exists. */
export const DAYS_AHEAD = 8;

/** Where migration 0025 left the rows of a table it turned into partitions. */
const legacyOf = (table: PartitionedTable) => `${table.name}_unpartitioned`;

/**
 * The first start after migration 0025 moves the rows of the old unpartitioned tables into the
 * week partitions, then drops the old tables. Runs after the migrations, under their lock (one
 * replica moves, the others wait), before the server answers: readers never see half the rows.
 * Each batch deletes from the old table and inserts into the new one in ONE statement, so a crash
 * or a stop at any point leaves every row in exactly one of the two, and the next start resumes.
 * Every start also gives yesterday, today and the days ahead their partitions.
 */
export async function finishPartitionUpgrade(db: Db, log: ProgressLog): Promise<void> {
  for (const table of PARTITIONED_TABLES) {
    if (await tableExists(db, legacyOf(table))) await moveLegacyRows(db, table, log);
    const today = dayOf(new Date());
    await ensurePartitionsFor(db, table, daysBetween(addDays(today, -1), addDays(today, DAYS_AHEAD)));
  }
}

async function tableExists(db: Db, name: string): Promise<boolean> {
  const [row] = await executeRows<{ present: boolean }>(db, sql`select to_regclass(${name}) is not null as present`);
  return row?.present === true;
}

async function moveLegacyRows(db: Db, table: PartitionedTable, log: ProgressLog) {
  const legacy = sql.identifier(legacyOf(table));
  const time = sql.identifier(table.time);
  const [range] = await executeRows<{ total: number | string; first: string | null; last: string | null }>(
    db,
    sql`select count(*) as total, min((${time} at time zone 'UTC')::date)::text as first, max((${time} at time zone 'UTC')::date)::text as last from ${legacy}`,
  );
  const total = Number(range?.total ?? 0);
  log(`moving ${table.name} into week partitions`, { table: table.name, rows: total, firstDay: range?.first, lastDay: range?.last });
  // Every week that has rows gets its partition first: a row needs its week's partition to be stored.
  if (range?.first && range.last) await ensurePartitionsFor(db, table, daysBetween(range.first, range.last));
  const started = Date.now();
  let moved = 0;
  let lastLog = started;
  let after: string | null = null;
  for (;;) {
    const [batch]: { n: number | string; last: string | null }[] = await executeRows(db, moveBatchSql(table, after));
    const n = Number(batch?.n ?? 0);
    if (n === 0 || !batch?.last) break;
    moved += n;
    after = batch.last;
    if (Date.now() - lastLog >= 2_000) {
      lastLog = Date.now();
      log(`moving ${table.name} into week partitions`, { table: table.name, moved, rows: total, percent: total ? Math.floor((moved / total) * 100) : 100 });
    }
  }
  await db.execute(sql`drop table ${legacy}`);
  log(`moved ${table.name} into week partitions`, { table: table.name, moved, durationMs: Date.now() - started });
}

/** One batch, by primary key order from `after`: deleted from the old table and inserted into the new in one statement. */
function moveBatchSql(table: PartitionedTable, after: string | null) {
  const legacy = sql.identifier(legacyOf(table));
  const from = after === null ? sql`true` : sql`id > ${after}::uuid`;
  const pick = sql`select id from ${legacy} where ${from} order by id limit ${MOVE_BATCH}`;
  if (table.name === "occurrences") {
    return sql`with moved as (delete from ${legacy} where id in (${pick}) returning *),
                    stored as (
                      insert into occurrences (id, organization_id, project_id, issue_id, event_id, timestamp, received_at, received_on, level,
                                               platform, environment, environment_bucket, release, name, message, user_key, fingerprint, data)
                      select id, organization_id, project_id, issue_id, event_id, timestamp, received_at, (received_at at time zone 'UTC')::date, level,
                             platform, environment, environment_bucket, release, name, message, user_key, fingerprint, data
                      from moved
                      returning id)
               select count(*) as n, (select id::text from stored order by id desc limit 1) as last from stored`;
  }
  return sql`with moved as (delete from ${legacy} where id in (${pick}) returning *),
                  stored as (
                    insert into events (id, organization_id, project_id, name, properties, created_at)
                    select id, organization_id, project_id, name, properties, created_at from moved
                    returning id)
             select count(*) as n, (select id::text from stored order by id desc limit 1) as last from stored`;
}
