import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { sqlStateOf } from "../ingest/store/database-errors";
import { countPartitionRows, dropPartition, listPartitions } from "./week-partitions";
import { PARTITIONED_TABLES, type PartitionedTable } from "./partitioned-tables";
import { dayOf, weekStartOf } from "./utc-days";

/** How long one project's data is kept (data-settings/project-retention.ts resolves it). */
export interface RetainedProject {
  organizationId: string;
  projectId: string;
  retentionDays: number;
}

export interface RetentionPlan {
  asOf: Date;
  projects: RetainedProject[];
  /** The retention assumed when there is no project at all (the product default). */
  fallbackDays: number;
  dryRun: boolean;
  /** Called between projects: a long cleanup keeps its run's lease alive (maintenance-run.ts). */
  beat?: () => Promise<void>;
}

export interface DroppedPartition {
  table: string;
  partition: string;
  /** The week's Monday. */
  week: string;
  rows: number;
  durationMs: number;
}

export interface RetentionSummary {
  /** Whole weeks dropped (or, on a dry run, that would be). */
  droppedPartitions: DroppedPartition[];
  /** Weeks whose drop gave up waiting for its lock (a long transaction): the next run drops them. */
  lockedPartitions: string[];
  /** Rows past their project's retention deleted from weeks still kept (the edge), per table. */
  edgeRows: Record<string, number>;
  /** Rollup rows (hourly/daily counts, release health) of days past retention, per table. */
  rollupRows: Record<string, number>;
}

/** Rows deleted per statement in the edge and rollup cleanups: short transactions beside ingest. */
const DELETE_BATCH = 5_000;
/** A session can still send updates this long after it started (Relay accepts 5 days); its dedup rows go after. */
const SESSION_UPDATE_DAYS = 6;

/** SQLSTATE of a lock wait that reached lock_timeout. */
const LOCK_NOT_AVAILABLE = "55P03";

const cutoffOf = (asOf: Date, days: number) => new Date(asOf.getTime() - days * 86_400_000);

/**
 * Retention as of `plan.asOf`: a week's partition goes whole once every project's retention has
 * passed all of it (the longest retention decides); in the weeks still kept, each project's rows
 * older than its own cutoff are deleted in batches (the edge: the week the cutoff falls in, and
 * for a project keeping less than the longest, the weeks between); its charts' rollups of days
 * past retention go too, so charts show what still exists. Issue counters stay. On a dry run
 * nothing changes and the summary says what would go.
 */
export async function sweepRetention(db: Db, plan: RetentionPlan): Promise<RetentionSummary> {
  const longest = plan.projects.length > 0 ? Math.max(...plan.projects.map((p) => p.retentionDays)) : plan.fallbackDays;
  const keepFrom = cutoffOf(plan.asOf, longest);
  const summary: RetentionSummary = { droppedPartitions: [], lockedPartitions: [], edgeRows: {}, rollupRows: {} };
  for (const table of PARTITIONED_TABLES) {
    for (const partition of await listPartitions(db, table)) {
      // The week's rows end at its last midnight: all are past every cutoff when that is not after the earliest cutoff.
      if (Date.parse(`${partition.end}T00:00:00Z`) > keepFrom.getTime()) continue;
      const started = Date.now();
      const rows = await countPartitionRows(db, partition.name);
      try {
        if (!plan.dryRun) await dropPartition(db, table, partition.name);
      } catch (error) {
        if (sqlStateOf(error) !== LOCK_NOT_AVAILABLE) throw error;
        summary.lockedPartitions.push(partition.name);
        continue;
      }
      summary.droppedPartitions.push({ table: table.name, partition: partition.name, week: partition.start, rows, durationMs: Date.now() - started });
    }
    let edge = 0;
    for (const project of plan.projects) {
      edge += await deleteEdge(db, table, project, cutoffOf(plan.asOf, project.retentionDays), keepFrom, plan.dryRun);
      await plan.beat?.();
    }
    summary.edgeRows[table.name] = edge;
  }
  for (const project of plan.projects) {
    for (const [name, count] of Object.entries(await deleteRollups(db, project, cutoffOf(plan.asOf, project.retentionDays), plan.dryRun))) {
      summary.rollupRows[name] = (summary.rollupRows[name] ?? 0) + count;
    }
  }
  const sessions = await deleteInBatches(
    db,
    "release_health_sessions",
    sql`hour < ${cutoffOf(plan.asOf, SESSION_UPDATE_DAYS).toISOString()}::timestamptz`,
    plan.dryRun,
  );
  summary.rollupRows.release_health_sessions = (summary.rollupRows.release_health_sessions ?? 0) + sessions;
  return summary;
}

/**
 * A project's rows older than its cutoff in the weeks still kept (from the week `keepFrom` falls
 * in: the weeks before it went whole, or, on a dry run, are counted as going whole). The key
 * bounds prune the search to the partitions between; the time bound keeps the rest.
 */
async function deleteEdge(db: Db, table: PartitionedTable, project: RetainedProject, cutoff: Date, keepFrom: Date, dryRun: boolean): Promise<number> {
  const key = sql.identifier(table.key);
  const time = sql.identifier(table.time);
  const dayBound =
    table.keyType === "date"
      ? sql`${key} >= ${weekStartOf(dayOf(keepFrom))}::date and ${key} <= ${dayOf(cutoff)}::date`
      : sql`${key} >= ${`${weekStartOf(dayOf(keepFrom))}T00:00:00Z`}::timestamptz and ${key} < ${cutoff.toISOString()}::timestamptz`;
  const where = sql`organization_id = ${project.organizationId} and project_id = ${project.projectId}::uuid and ${dayBound} and ${time} < ${cutoff.toISOString()}::timestamptz`;
  const name = sql.identifier(table.name);
  if (dryRun) return countWhere(db, name, where);
  let deleted = 0;
  for (;;) {
    const [row] = await executeRows<{ n: number | string }>(
      db,
      sql`with gone as (delete from ${name} where ${dayBound} and (id, ${key}) in (select id, ${key} from ${name} where ${where} limit ${DELETE_BATCH}) returning 1)
          select count(*) as n from gone`,
    );
    const n = Number(row?.n ?? 0);
    deleted += n;
    if (n < DELETE_BATCH) return deleted;
  }
}

/** The project's rollup rows of hours and days before its cutoff (the cutoff's own day keeps its row). */
async function deleteRollups(db: Db, project: RetainedProject, cutoff: Date, dryRun: boolean): Promise<Record<string, number>> {
  const scope = sql`organization_id = ${project.organizationId} and project_id = ${project.projectId}::uuid`;
  const hour = sql`${new Date(Math.floor(cutoff.getTime() / 3_600_000) * 3_600_000).toISOString()}::timestamptz`;
  const day = sql`${dayOf(cutoff)}::date`;
  return {
    issue_hourly_counts: await deleteInBatches(db, "issue_hourly_counts", sql`${scope} and hour < ${hour}`, dryRun),
    issue_daily_counts: await deleteInBatches(db, "issue_daily_counts", sql`${scope} and day < ${day}`, dryRun),
    project_daily_counts: await deleteInBatches(db, "project_daily_counts", sql`${scope} and day < ${day}`, dryRun),
    release_health_hourly: await deleteInBatches(db, "release_health_hourly", sql`${scope} and hour < ${hour}`, dryRun),
    release_health_users: await deleteInBatches(db, "release_health_users", sql`${scope} and day < ${day}`, dryRun),
  };
}

/** Deletes a plain table's rows matching `where`, DELETE_BATCH at a time by their physical address. */
async function deleteInBatches(db: Db, table: string, where: SQL, dryRun: boolean): Promise<number> {
  const name = sql.identifier(table);
  if (dryRun) return countWhere(db, name, where);
  let deleted = 0;
  for (;;) {
    const [row] = await executeRows<{ n: number | string }>(
      db,
      sql`with gone as (delete from ${name} where ctid in (select ctid from ${name} where ${where} limit ${DELETE_BATCH}) returning 1)
          select count(*) as n from gone`,
    );
    const n = Number(row?.n ?? 0);
    deleted += n;
    if (n < DELETE_BATCH) return deleted;
  }
}

async function countWhere(db: Db, name: SQLWrapper, where: SQL): Promise<number> {
  const [row] = await executeRows<{ n: number | string }>(db, sql`select count(*) as n from ${name} where ${where}`);
  return Number(row?.n ?? 0);
}
