import { listProjectRetention } from "../data-settings/project-retention";
import type { Db } from "../db/client";
import type { Env } from "../env";
import type { JobQueue } from "../jobs/job-queue";
import type { JobHandlers } from "../jobs/job-registry";
import type { Logger } from "../logger";
import { runMaintenance, type MaintenanceSummary } from "./maintenance-run";

/** One maintenance job waits at a time across the cluster (the queue's singleton key). */
const MAINTENANCE_KEY = "maintenance";
/** The first run after a start waits this long: a start (or a rollout of replicas) is not slowed by it. */
export const FIRST_MAINTENANCE_DELAY_MS = 60_000;

type MaintenanceEnv = Pick<Env, "MAINTENANCE_INTERVAL_MINUTES" | "RETENTION_DAYS"> & Parameters<typeof listProjectRetention>[1];

/** Queues the next maintenance run `delayMs` from now, unless one is waiting already or the schedule is off. */
export async function scheduleMaintenance(jobs: Pick<JobQueue, "enqueue">, env: Pick<Env, "MAINTENANCE_INTERVAL_MINUTES">, delayMs: number) {
  if (env.MAINTENANCE_INTERVAL_MINUTES === 0) return;
  await jobs.enqueue("maintenance.run", {}, { singletonKey: MAINTENANCE_KEY, startAfter: new Date(Date.now() + delayMs) });
}

/**
 * "maintenance.run": every live project's retention, then one run (maintenance-run.ts), then the
 * next run queued an interval later, whether this one worked or not (a failure is also retried by
 * the queue; the run's lease keeps the two from overlapping).
 */
export function maintenanceJobHandlers(deps: {
  db: Db;
  env: MaintenanceEnv;
  logger: Logger;
  jobs: Pick<JobQueue, "enqueue">;
}): Pick<JobHandlers, "maintenance.run"> {
  return {
    "maintenance.run": async () => {
      try {
        const projects = await listProjectRetention(deps.db, deps.env);
        const summary = await runMaintenance(deps.db, { projects, fallbackDays: deps.env.RETENTION_DAYS });
        if (summary) deps.logger.info("maintenance run finished", summaryFields(summary));
        else deps.logger.info("maintenance run skipped: another replica is running it");
      } finally {
        await scheduleMaintenance(deps.jobs, deps.env, deps.env.MAINTENANCE_INTERVAL_MINUTES * 60_000);
      }
    },
  };
}

/** The log line's fields: counts, not lists. */
export function summaryFields(summary: MaintenanceSummary) {
  const created = Object.values(summary.partitionsCreated).reduce((sum, days) => sum + days.length, 0);
  return {
    asOf: summary.asOf,
    dryRun: summary.dryRun,
    partitionsCreated: created,
    partitionsDropped: summary.retention.droppedPartitions.length,
    partitionsLocked: summary.retention.lockedPartitions.length,
    rowsInDroppedPartitions: summary.retention.droppedPartitions.reduce((sum, p) => sum + p.rows, 0),
    edgeRows: summary.retention.edgeRows,
    rollupRows: Object.values(summary.retention.rollupRows).reduce((sum, n) => sum + n, 0),
    durationMs: summary.durationMs,
  };
}
