import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { SQL } from "drizzle-orm";
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import postgres from "postgres";
import { finishPartitionUpgrade, type ProgressLog } from "../retention/partition-upgrade";
import { migratePgliteChecked, migratePostgresOnce } from "./migrations";
import { createPglitePreparedRunner } from "./pglite-prepared";
import * as schema from "./schema/index";

export type Schema = typeof schema;
/** Both drivers expose the same query builder; services only see this type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /**
   * Applies the committed drizzle/ migrations; safe to call on every start, and from replicas
   * starting together (migrations.ts). Throws NewerSchemaError on a database a newer build migrated.
   * Then finishes the move into week partitions (retention/partition-upgrade.ts), reporting its
   * progress to `log`, and gives today and the days ahead their partitions.
   */
  migrate(log?: ProgressLog): Promise<void>;
  /**
   * Runs a hot statement whose text never changes as a named prepared statement: parsed once
   * per connection (PostgreSQL) or per database (PGlite, see pglite-prepared.ts) instead of on
   * every call, in one round trip.
   */
  executePrepared<T>(query: SQL): Promise<T[]>;
  /**
   * The connection pool, for /metrics: its size, and (PostgreSQL) the application_name its
   * connections carry, by which pg_stat_activity tells them from other pools and replicas'.
   */
  pool: { name: "primary"; max: number; applicationName?: string };
  /** PostgreSQL only: the pool's client, on which the read replica retries a read its standby could not serve. */
  postgresClient?: postgres.Sql;
  /** Cheap round trip for /api/ready. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball (what `pgliteTemplate` loads). */
  dumpDataDir?(): Promise<Blob>;
}

/** Renders drizzle SQL to text and parameters for the prepared-statement paths. */
const dialect = new PgDialect();

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite directory; `memory://` keeps everything in memory (tests). */
  pgliteDataDir: string;
  /**
   * An in-memory PGlite starts as a copy of this data directory (a `dumpDataDir` tarball). The
   * test suite migrates once per run and starts each suite from the copy: loading takes about a
   * second, where an empty PGlite's initdb plus every migration takes 5–10 s.
   */
  pgliteTemplate?: Blob;
  /**
   * An already-open PGlite to use instead of starting one: the test suite keeps one per worker and
   * empties it between suites (test/helpers/test-database.ts), as starting one costs 2–3 s.
   */
  pgliteClient?: PGlite;
  maxConnections?: number;
}

const ignoreProgress: ProgressLog = () => {};

export function createDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) return createPostgres(options.databaseUrl, options.maxConnections ?? 10);
  return createPglite(options.pgliteClient ?? openPglite(options.pgliteDataDir, options.pgliteTemplate));
}

/** A postgres.js pool: the primary's (below) or the read replica's (read-replica.ts), with the same options. */
export interface PostgresPool {
  client: postgres.Sql;
  /** Tells this pool's connections from other pools' and replicas' in pg_stat_activity (/metrics). */
  applicationName: string;
}

export function openPostgresPool(url: string, max: number): PostgresPool {
  const applicationName = `faultline ${randomBytes(4).toString("hex")}`;
  const client = postgres(url, {
    max,
    onnotice: () => {},
    connection: { application_name: applicationName },
    // Fail fast while the server is down so callers can answer 503 instead of hanging.
    connect_timeout: 5,
  });
  return { client, applicationName };
}

/** drizzle over a postgres.js client (the schema's relations included). */
export function drizzleOver(client: postgres.Sql): Db {
  return drizzlePostgres(client, { schema }) as unknown as Db;
}

function createPostgres(url: string, max: number): Database {
  const { client, applicationName } = openPostgresPool(url, max);
  const db = drizzleOver(preparingEveryQuery(client));
  return {
    db,
    kind: "postgres",
    postgresClient: client,
    pool: { name: "primary", max, applicationName },
    executePrepared: async <T>(query: SQL) => {
      // drizzle's execute() sends raw SQL unnamed, which postgres.js describes first: two round
      // trips and a fresh parse and plan per call. postgres.js caches named statements per connection.
      const { sql: text, params } = dialect.sqlToQuery(query);
      return (await client.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true })) as unknown as T[];
    },
    migrate: (log = ignoreProgress) =>
      migratePostgresOnce(url, client, async () => {
        await preferLz4(client);
        await finishPartitionUpgrade(db, log);
      }),
    ping: async () => {
      await client`select 1`;
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * drizzle sends its queries unnamed, which postgres.js must describe before it can bind them: two
 * round trips and a fresh parse and plan on every call. Named, each text is prepared once per
 * connection and later calls take one round trip: about a tenth of an agent answer's time
 * (bench:chat), and a round trip less per query of every API request. A connection prepares at
 * most the app's distinct query texts and is replaced every 30–60 minutes (postgres.js
 * max_lifetime), which bounds what the server keeps for it. `?prepare=false` on DATABASE_URL (a
 * pooler in transaction mode) turns it off with the hot statements'. Transactions (`client.begin`)
 * keep postgres.js's default.
 */
export function preparingEveryQuery(client: postgres.Sql): postgres.Sql {
  const unsafe: postgres.Sql["unsafe"] = (query, parameters, options) => client.unsafe(query, parameters, { ...options, prepare: true });
  // Everything else (begin, options with drizzle's type parsers, end) is the client's own.
  return Object.setPrototypeOf({ unsafe }, client) as postgres.Sql;
}

/**
 * Stored events are large JSON documents that PostgreSQL compresses when TOASTed. lz4 costs a
 * fraction of the default pglz's CPU on the ingest path. It is a column setting rather than a
 * migration because PGlite (and some PostgreSQL builds) lack lz4: there the default stays.
 */
async function preferLz4(client: postgres.Sql) {
  const [row] = await client`select 'lz4' = any(enumvals) as supported from pg_settings where name = 'default_toast_compression'`;
  if (row?.supported) await client`alter table occurrences alter column data set compression lz4`;
}

const PGLITE_SETTINGS = ["shared_buffers = 16MB", "wal_buffers = 1MB", "work_mem = 2MB"];

/** PGlite runs inside this process; `memory://` keeps it in memory, a path on disk. */
export function openPglite(dataDir: string, template?: Blob): PGlite {
  const inMemory = dataDir.startsWith("memory://");
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  if (template && !inMemory) throw new Error("a PGlite template applies to an in-memory database only");
  // A small buffer cache keeps PGlite's WebAssembly heap (and so the process RSS) down; the OS
  // page cache still holds the hot data. Measured in bench/README.md.
  return new PGlite(inMemory ? undefined : path.resolve(dataDir), { postgresqlconf: PGLITE_SETTINGS, loadDataDir: template });
}

function createPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const runPrepared = createPglitePreparedRunner(client);
  return {
    db,
    kind: "pglite",
    // PGlite runs in this thread and takes one query at a time.
    pool: { name: "primary", max: 1 },
    executePrepared: (query) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return runPrepared(text, params);
    },
    migrate: async (log = ignoreProgress) => {
      await migratePgliteChecked(client);
      await finishPartitionUpgrade(db, log);
    },
    ping: async () => {
      await client.query("select 1");
    },
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir("none"),
  };
}
