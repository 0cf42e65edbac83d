import type { Db } from "../db/client";
import { sqlStateOf } from "../ingest/store/database-errors";
import { ensurePartitionsFor } from "./week-partitions";
import { PARTITIONED_TABLES } from "./partitioned-tables";
import { addDays, dayOf } from "./utc-days";

/**
 * A row whose day has no partition (SQLSTATE 23514, "no partition of relation … found for row"):
 * the days ahead are created at every start and every hour, so this means a clock that jumped or a
 * maintenance job that has not run for a week. Ingest then creates their weeks and stores the batch
 * again rather than refuse events it acknowledged nothing for yet.
 */
export function isMissingPartition(error: unknown): boolean {
  if (sqlStateOf(error) !== "23514") return false;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause.message.includes("no partition of relation")) return true;
  }
  return false;
}

/** Gives every partitioned table the weeks of yesterday, today and tomorrow (by this process's clock), and `days`. */
export async function ensureCurrentPartitions(db: Db, days: string[] = []): Promise<void> {
  const today = dayOf(new Date());
  for (const table of PARTITIONED_TABLES) await ensurePartitionsFor(db, table, [addDays(today, -1), today, addDays(today, 1), ...days]);
}
