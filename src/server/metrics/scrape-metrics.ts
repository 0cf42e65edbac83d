import { monitorEventLoopDelay } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { Database, Db } from "../db/client";
import type { ReadReplica } from "../db/read-replica";
import { executeRows } from "../db/execute";
import { CollectedMetric, MetricRegistry, type Sample } from "./metric-registry";
import { registerReplicaMetrics } from "./replica-metrics";

interface JobQueueRow {
  name: string;
  due: number;
  scheduled: number;
  active: number;
  oldest_due_seconds: number;
}

interface PoolRow {
  open: number;
  busy: number;
}

/** What the database says at scrape time: read once per scrape, shared by the gauges below. */
interface DatabaseReading {
  up: boolean;
  jobs: JobQueueRow[];
  pool: PoolRow | null;
  /** The read replica's pool, from the standby's own pg_stat_activity; null without one or while it is down. */
  replicaPool: PoolRow | null;
}

/**
 * One grouped pass over the jobs table: its rows are the queue (a finished job is deleted), so the
 * pass is as long as the backlog, and the groups are the registry's job names.
 */
function readJobQueue(database: Database) {
  return executeRows<JobQueueRow>(
    database.db,
    sql`select name,
          count(*) filter (where state = 'queued' and run_at <= now())::int as due,
          count(*) filter (where state = 'queued' and run_at > now())::int as scheduled,
          count(*) filter (where state = 'active')::int as active,
          coalesce(extract(epoch from now() - min(run_at) filter (where state = 'queued' and run_at <= now())), 0)::float8 as oldest_due_seconds
        from jobs group by name`,
  );
}

/**
 * postgres.js does not expose its pool, so PostgreSQL reports it: this pool's connections carry an
 * application_name of their own (db/client.ts). Busy leaves out the connection asking.
 */
async function readPool(db: Db, name: string | undefined): Promise<PoolRow | null> {
  if (!name) return null;
  const [row] = await executeRows<PoolRow>(
    db,
    sql`select count(*)::int as open, count(*) filter (where state <> 'idle' and pid <> pg_backend_pid())::int as busy
        from pg_stat_activity where application_name = ${name}`,
  );
  return row ?? null;
}

export interface ScrapeMetrics {
  /** Reads the database once, then renders every gauge. */
  render(): Promise<string>;
  close(): void;
}

/**
 * The gauges read when /metrics is: job queue depth and age, pool use, event-loop delay (since the
 * previous scrape), memory. `jobNames` are the registry's, reported at zero when none is queued.
 */
export function createScrapeMetrics(database: Database, jobNames: readonly string[], replica?: ReadReplica): ScrapeMetrics {
  const registry = new MetricRegistry();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();

  // Every database gauge of a scrape reads the one reading render() took before it.
  let reading: DatabaseReading = { up: false, jobs: [], pool: null, replicaPool: null };
  // A standby that is down reports no pool; the primary's gauges do not depend on it.
  const readReplicaPool = async () => (replica ? readPool(replica.direct, replica.pool.applicationName).catch(() => null) : null);
  const read = async (): Promise<DatabaseReading> => {
    const replicaPool = readReplicaPool();
    try {
      const [jobs, pool] = await Promise.all([readJobQueue(database), readPool(database.db, database.pool.applicationName)]);
      return { up: true, jobs, pool, replicaPool: await replicaPool };
    } catch {
      return { up: false, jobs: [], pool: null, replicaPool: await replicaPool };
    }
  };

  const perJob = (pick: (row: JobQueueRow) => number, state?: string): Sample[] => {
    if (!reading.up) return [];
    const byName = new Map(reading.jobs.map((row) => [row.name, row]));
    const names = [...new Set([...jobNames, ...byName.keys()])];
    return names.map((name) => {
      const row = byName.get(name);
      const labels: Record<string, string> = state ? { job: name, state } : { job: name };
      return { labels, value: row ? Number(pick(row)) : 0 };
    });
  };

  registry.register(
    new CollectedMetric("faultline_database_up", "Whether this scrape's database queries answered (1) or failed (0).", "gauge", () => [
      { value: reading.up ? 1 : 0 },
    ]),
  );
  registry.register(
    new CollectedMetric("faultline_job_queue_depth", "Jobs in the queue by job and state: due (waiting to run), scheduled (later), active.", "gauge", () => [
      ...perJob((row) => row.due, "due"),
      ...perJob((row) => row.scheduled, "scheduled"),
      ...perJob((row) => row.active, "active"),
    ]),
  );
  registry.register(
    new CollectedMetric("faultline_job_queue_oldest_due_seconds", "How long the oldest due job of each kind has waited to run.", "gauge", () =>
      perJob((row) => row.oldest_due_seconds),
    ),
  );
  registry.register(
    new CollectedMetric(
      "faultline_db_pool_connections",
      "Database connections per pool: max (size), open, busy (running a query or a transaction).",
      "gauge",
      () => {
        const { pool } = reading;
        const name = database.pool.name;
        // PGlite: one connection in this thread, always open; how busy it is is the event loop's delay.
        const open = database.kind === "pglite" ? 1 : pool?.open;
        const samples: Sample[] = [{ labels: { pool: name, state: "max" }, value: database.pool.max }];
        if (open !== undefined) samples.push({ labels: { pool: name, state: "open" }, value: open });
        if (pool) samples.push({ labels: { pool: name, state: "busy" }, value: pool.busy });
        if (replica) {
          samples.push({ labels: { pool: "replica", state: "max" }, value: replica.pool.max });
          const standby = reading.replicaPool;
          if (standby)
            samples.push(
              { labels: { pool: "replica", state: "open" }, value: standby.open },
              { labels: { pool: "replica", state: "busy" }, value: standby.busy },
            );
        }
        return samples;
      },
    ),
  );
  if (replica) registerReplicaMetrics(registry, replica);
  registry.register(
    new CollectedMetric("faultline_event_loop_delay_seconds", "Event-loop delay since the previous scrape, by quantile (0.5, 0.99) and max.", "gauge", () => {
      const samples = [
        { labels: { quantile: "0.5" }, value: loopDelay.percentile(50) / 1e9 },
        { labels: { quantile: "0.99" }, value: loopDelay.percentile(99) / 1e9 },
        { labels: { quantile: "max" }, value: loopDelay.max / 1e9 },
      ];
      loopDelay.reset();
      return samples;
    }),
  );
  registry.register(
    new CollectedMetric("faultline_process_resident_memory_bytes", "Resident set size of this process.", "gauge", () => [{ value: process.memoryUsage.rss() }]),
  );
  registry.register(
    new CollectedMetric("faultline_process_heap_bytes", "V8 heap: used and total (allocated).", "gauge", () => {
      const { heapUsed, heapTotal } = process.memoryUsage();
      return [
        { labels: { kind: "used" }, value: heapUsed },
        { labels: { kind: "total" }, value: heapTotal },
      ];
    }),
  );
  return {
    render: async () => {
      reading = await read();
      return registry.render();
    },
    close: () => loopDelay.disable(),
  };
}
