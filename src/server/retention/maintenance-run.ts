import { hostname } from "node:os";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { ensurePartitionsFor, listPartitions } from "./week-partitions";
import { DAYS_AHEAD } from "./partition-upgrade";
import { PARTITIONED_TABLES } from "./partitioned-tables";
import { sweepRetention, type RetainedProject, type RetentionSummary } from "./retention-sweep";
import { addDays, dayOf, daysBetween, weekStartOf } from "./utc-days";

export interface MaintenanceOptions {
  /** Act as if it were this moment (`--as-of`); now by default. */
  asOf?: Date;
  /** Say what would change, change nothing. */
  dryRun?: boolean;
  /** Every live project's retention (data-settings/project-retention.ts). */
  projects: RetainedProject[];
  /** The retention assumed when there is no project (the product default). */
  fallbackDays: number;
}

export interface MaintenanceSummary {
  asOf: string;
  dryRun: boolean;
  /** Week partitions created ahead (their Mondays), per table. */
  partitionsCreated: Record<string, string[]>;
  retention: RetentionSummary;
  durationMs: number;
}

/** A run whose heartbeat is older than this is taken to have died with its process. */
const ABANDONED_AFTER = "10 minutes";

/**
 * One maintenance run: each partitioned table gets its weeks ahead, then retention (retention-sweep.ts). At most one run at a time across
 * every replica — its `maintenance_runs` row is the lease — so a second caller gets null and does
 * nothing. A dry run takes no lease, records nothing and changes nothing.
 */
export async function runMaintenance(db: Db, options: MaintenanceOptions): Promise<MaintenanceSummary | null> {
  const asOf = options.asOf ?? new Date();
  const dryRun = options.dryRun ?? false;
  const started = Date.now();
  const runId = dryRun ? null : await takeLease(db, asOf);
  if (!dryRun && runId === null) return null;
  const beat = async () => {
    if (runId) await db.execute(sql`update maintenance_runs set heartbeat_at = now() where id = ${runId}::uuid`);
  };
  try {
    const partitionsCreated: Record<string, string[]> = {};
    for (const table of PARTITIONED_TABLES) {
      const today = dayOf(asOf);
      const wanted = daysBetween(today, addDays(today, DAYS_AHEAD));
      if (dryRun) {
        const existing = new Set((await listPartitions(db, table)).map((p) => p.start));
        partitionsCreated[table.name] = [...new Set(wanted.map(weekStartOf))].filter((week) => !existing.has(week));
      } else {
        partitionsCreated[table.name] = await ensurePartitionsFor(db, table, wanted);
      }
      await beat();
    }
    const retention = await sweepRetention(db, { asOf, projects: options.projects, fallbackDays: options.fallbackDays, dryRun, beat });
    const summary: MaintenanceSummary = { asOf: asOf.toISOString(), dryRun, partitionsCreated, retention, durationMs: Date.now() - started };
    if (runId) await db.execute(sql`update maintenance_runs set finished_at = now(), summary = ${JSON.stringify(summary)} where id = ${runId}::uuid`);
    return summary;
  } catch (error) {
    if (runId) {
      const message = error instanceof Error ? error.message : String(error);
      await db.execute(sql`update maintenance_runs set finished_at = now(), error = ${message.slice(0, 2_000)} where id = ${runId}::uuid`);
    }
    throw error;
  }
}

/** The lease: a new running row, refused by the one-running index while another run lives. */
async function takeLease(db: Db, asOf: Date): Promise<string | null> {
  await db.execute(
    sql`update maintenance_runs set finished_at = now(), error = ${`abandoned: no heartbeat for ${ABANDONED_AFTER}`}
         where finished_at is null and heartbeat_at < now() - ${ABANDONED_AFTER}::interval`,
  );
  const [row] = await executeRows<{ id: string }>(
    db,
    sql`insert into maintenance_runs (as_of, holder) values (${asOf.toISOString()}::timestamptz, ${`${hostname()}:${process.pid}`})
        on conflict (lane) where finished_at is null do nothing
        returning id`,
  );
  return row?.id ?? null;
}
