import type postgres from "postgres";
import type { Logger } from "../logger";
import { drizzleOver, openPostgresPool, preparingEveryQuery, type Database, type Db } from "./client";
import { replicaLagSeconds } from "./replica-lag";
import { isStandbyFailure } from "./standby-failure";

/** How often the standby's lag is measured. */
export const REPLICA_POLL_MS = 2_000;

export interface ReplicaState {
  /** The last poll answered (and no read failed on the standby since). */
  up: boolean;
  /** Seconds behind the primary at the last poll; null while unknown (down, not a standby). */
  lagSeconds: number | null;
  /** Lag-tolerant reads go to the standby now. */
  inUse: boolean;
}

/**
 * DATABASE_READ_URL: a streaming-replication standby for the reads that tolerate lag. Which Db
 * serves them is decided here, once per request (`readDb()`), from a poll every REPLICA_POLL_MS:
 * the standby while it answers and lags at most `maxLagSeconds`, else the primary. The switch is
 * logged once each way, not per request.
 */
export interface ReadReplica {
  /** The standby, retrying on the primary a read it could not serve (connection lost, shutting down). */
  db: Db;
  /** The standby without that retry (/metrics reads the standby's own pg_stat_activity through it). */
  direct: Db;
  pool: { name: "replica"; max: number; applicationName: string };
  maxLagSeconds: number;
  /** The Db lag-tolerant reads use now: `db` or the primary. */
  readDb(): Db;
  state(): ReplicaState;
  /** Reads the standby failed and the primary answered, since the start. */
  retriedOnPrimary(): number;
  /** Measures the lag now (the start and tests; the timer does it every REPLICA_POLL_MS). */
  poll(): Promise<void>;
  close(): Promise<void>;
}

export interface ReadReplicaOptions {
  url: string;
  primary: Database;
  maxLagSeconds: number;
  logger: Logger;
  maxConnections?: number;
  pollMs?: number;
}

/**
 * The standby's client for drizzle: every query a named prepared statement as on the primary
 * (client.ts preparingEveryQuery), and a query the standby fails by `isStandbyFailure` sent again,
 * unchanged, to the primary. drizzle awaits `unsafe(…)` or calls `.values()` on it; both are here.
 * Transactions (`begin`) stay the standby's own: the reads routed here run none.
 */
function retryingOnPrimary(standby: postgres.Sql, primary: postgres.Sql, failed: (error: unknown) => void): postgres.Sql {
  const unsafe = (query: string, parameters?: unknown[], options?: postgres.UnsafeQueryOptions) => {
    const send = (client: postgres.Sql, values: boolean) => {
      const pending = client.unsafe(query, parameters as postgres.ParameterOrJSON<never>[], { ...options, prepare: true });
      return values ? pending.values() : pending;
    };
    const run = async (values: boolean) => {
      try {
        return await send(standby, values);
      } catch (error) {
        if (!isStandbyFailure(error)) throw error;
        failed(error);
        return await send(primary, values);
      }
    };
    return {
      values: () => run(true),
      then: (resolve: (rows: unknown) => unknown, reject: (error: unknown) => unknown) => run(false).then(resolve, reject),
    };
  };
  return Object.setPrototypeOf({ unsafe }, standby) as postgres.Sql;
}

interface StandbyRow {
  in_recovery: boolean;
  replayed: string | null;
  since_last_replay: number | null;
}

export function createReadReplica(options: ReadReplicaOptions): ReadReplica {
  const { primary, maxLagSeconds, logger } = options;
  const primaryClient = primary.postgresClient;
  if (!primaryClient) throw new Error("a read replica needs a PostgreSQL primary");
  const max = options.maxConnections ?? 10;
  const pollMs = options.pollMs ?? REPLICA_POLL_MS;
  const { client, applicationName } = openPostgresPool(options.url, max);

  let state: ReplicaState = { up: false, lagSeconds: null, inUse: false };
  // False until the first poll decided, so the first decision is logged whichever it is.
  let decided = false;
  let retried = 0;

  const settle = (next: ReplicaState, reason: string) => {
    const switched = !decided || next.inUse !== state.inUse;
    state = next;
    decided = true;
    if (!switched) return;
    if (next.inUse) logger.info("reads on the read replica", { lagSeconds: next.lagSeconds, maxLagSeconds });
    else logger.warn("reads on the primary: the read replica is not usable", { reason, lagSeconds: next.lagSeconds, maxLagSeconds });
  };

  const db = drizzleOver(
    retryingOnPrimary(client, primaryClient, (error) => {
      retried += 1;
      // Later requests go to the primary at once, not after the next poll; the poll brings them back.
      if (state.inUse) settle({ up: false, lagSeconds: null, inUse: false }, `a read failed on it: ${(error as Error).message}`);
    }),
  );

  const measure = async (): Promise<void> => {
    try {
      // The primary's position first: a standby that replayed up to it is current.
      const [{ lsn }] = await primaryClient<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
      const [row] = await client<StandbyRow[]>`select pg_is_in_recovery() as in_recovery, pg_last_wal_replay_lsn()::text as replayed,
        extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as since_last_replay`;
      const lagSeconds = replicaLagSeconds({
        primaryLsn: lsn,
        inRecovery: row.in_recovery,
        replayedLsn: row.replayed,
        secondsSinceLastReplay: row.since_last_replay,
      });
      const inUse = lagSeconds !== null && lagSeconds <= maxLagSeconds;
      const reason = !row.in_recovery ? "not a standby (pg_is_in_recovery() is false)" : lagSeconds === null ? "lag unknown" : "lag over the bound";
      settle({ up: true, lagSeconds, inUse }, reason);
    } catch (error) {
      settle({ up: false, lagSeconds: null, inUse: false }, `unreachable: ${(error as Error).message}`);
    }
  };

  // A hung standby must not hold the poll: past two periods without an answer, it is down.
  const poll = async () => {
    let timeout: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timeout = setTimeout(() => {
        if (state.inUse) settle({ up: false, lagSeconds: null, inUse: false }, "unreachable: the poll timed out");
        resolve();
      }, pollMs * 2);
      timeout.unref();
    });
    try {
      await Promise.race([measure(), timedOut]);
    } finally {
      clearTimeout(timeout);
    }
  };

  let closed = false;
  let running: Promise<void> = poll();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      running = poll().finally(() => {
        if (!closed) schedule();
      });
    }, pollMs);
    timer.unref();
  };
  void running.finally(() => {
    if (!closed) schedule();
  });

  return {
    db,
    direct: drizzleOver(preparingEveryQuery(client)),
    pool: { name: "replica", max, applicationName },
    maxLagSeconds,
    readDb: () => (state.inUse ? db : primary.db),
    state: () => state,
    retriedOnPrimary: () => retried,
    poll: () => {
      running = poll();
      return running;
    },
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await running.catch(() => {});
      await client.end({ timeout: 5 });
    },
  };
}
