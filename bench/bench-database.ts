import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { createDatabase, type Database, type Db } from "../src/server/db/client";
import * as schema from "../src/server/db/schema/index";

export interface CapturedQuery {
  query: string;
  params: unknown[];
}

/** A plan node of `EXPLAIN (FORMAT JSON)`. */
export type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/**
 * A fresh, migrated database for one benchmark run, dropped by `close()`: a new database on a
 * PostgreSQL server, or an in-memory PGlite. Beside the service-facing handle it has a second,
 * traced handle whose statements are recorded, so a benchmark can EXPLAIN what a case ran.
 */
export interface BenchDatabase {
  database: Database;
  /** The throwaway database's URL on PostgreSQL (another process can open it); none for PGlite in memory. */
  url?: string;
  /** "PostgreSQL 16.4" or "PGlite (PostgreSQL 17.5)", for the figures' header. */
  engine: string;
  traced: Db;
  captured: CapturedQuery[];
  explain(query: CapturedQuery): Promise<PlanNode>;
  close(): Promise<void>;
}

/** On the PostgreSQL server at `adminUrl` (a throwaway database), or PGlite in memory without one. */
export async function openBenchDatabase(adminUrl: string | undefined, prefix: string): Promise<BenchDatabase> {
  const bench = adminUrl ? await openPostgres(adminUrl, prefix) : await openPglite();
  await bench.database.migrate();
  return bench;
}

async function openPostgres(adminUrl: string, prefix: string): Promise<BenchDatabase> {
  const name = `${prefix}_${Date.now()}_${process.pid}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = createDatabase({ databaseUrl: url.toString(), pgliteDataDir: "" });
  const captured: CapturedQuery[] = [];
  const tracingClient = postgres(url.toString(), { max: 2, onnotice: () => {} });
  const traced = drizzlePostgres(tracingClient, { schema, logger: { logQuery: (query, params) => captured.push({ query, params }) } }) as unknown as Db;
  const [{ server_version: version }] = await admin<{ server_version: string }[]>`show server_version`;
  return {
    database,
    url: url.toString(),
    engine: `PostgreSQL ${version.split(" ")[0]}`,
    traced,
    captured,
    explain: async ({ query, params }) => {
      const [plan] = await tracingClient.unsafe(`explain (format json) ${query}`, params as never[]);
      return (plan["QUERY PLAN"] as { Plan: PlanNode }[])[0].Plan;
    },
    close: async () => {
      await tracingClient.end();
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function openPglite(): Promise<BenchDatabase> {
  const database = createDatabase({ pgliteDataDir: "memory://" });
  // PGlite is one in-process instance: the traced handle is a second drizzle over the same client.
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const captured: CapturedQuery[] = [];
  const traced = drizzlePglite(client, { schema, logger: { logQuery: (query, params) => captured.push({ query, params }) } }) as unknown as Db;
  const { rows } = await client.query<{ server_version: string }>("show server_version");
  return {
    database,
    engine: `PGlite (PostgreSQL ${rows[0].server_version.split(" ")[0]})`,
    traced,
    captured,
    explain: async ({ query, params }) => {
      const { rows: plan } = await client.query<Record<string, unknown>>(`explain (format json) ${query}`, params);
      const text = plan[0]["QUERY PLAN"];
      return ((typeof text === "string" ? JSON.parse(text) : text) as { Plan: PlanNode }[])[0].Plan;
    },
    close: () => database.close(),
  };
}
