/**
 * Issue 35: the first start after the partitioned schema, on a database of N occurrences made by
 * the schema before it (migrations up to 0024): how long moving them into their days takes, at how
 * many rows a second, and that every row arrives exactly once.
 *   npm run bench:upgrade [-- --occurrences 1000000]
 * The server is BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); the run
 * creates its own database there and drops it at the end.
 *   npm run bench:upgrade -- --smoke
 * 3,000 occurrences on PGlite in memory: correctness only, no timing targets.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { fail, parseBenchArgs } from "./bench-args";
import { sql } from "drizzle-orm";
import { createDatabase, type Database } from "../src/server/db/client";
import { executeRows } from "../src/server/db/execute";
import { MIGRATIONS_FOLDER } from "../src/server/db/migrations";

const args = parseBenchArgs(process.argv.slice(2));
if (args.write) fail("bench:upgrade prints its table; copy it into bench/README.md with the machine's load (--write is not supported)");
const OCCURRENCES = args.number("--occurrences", args.smoke ? 3_000 : 1_000_000);
const LAST_UNPARTITIONED = 24;
const DAYS = 30;

/** The migrations folder as it was before 0025: the schema today's main made. */
function foldersBeforePartitions(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "faultline-migrations-"));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= LAST_UNPARTITIONED);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

/** One organization, project and issue, and N occurrences over DAYS days, in the old table. */
const SEED = `
  insert into organizations (id, name, slug, created_at) values ('bench-org', 'bench', 'bench-upgrade', now());
  insert into projects (id, organization_id, name, slug, platform) values ('00000000-0000-4000-8000-000000000001', 'bench-org', 'bench', 'bench', 'NODE_JS');
  insert into issues (id, organization_id, project_id, fingerprint, grouping_version, title, culprit, level, platform, severity, first_seen, last_seen, event_count, user_count)
    values ('00000000-0000-4000-8000-000000000002', 'bench-org', '00000000-0000-4000-8000-000000000001', 'bench', 2, 'Error', 'x', 'error', 'node', 'MEDIUM', now(), now(), ${OCCURRENCES}, 0);
  insert into occurrences (organization_id, project_id, issue_id, event_id, timestamp, received_at, level, environment_bucket, data)
    select 'bench-org', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', md5(n::text),
           now() - (n % ${DAYS}) * interval '1 day', now() - (n % ${DAYS}) * interval '1 day', 'error', 'PRODUCTION',
           -- About 3 KB of hex, a typical stored event's size, which compresses about as one does.
           '{"message":"seeded event ' || n || '","exceptions":[{"type":"Error","value":"' ||
             (select string_agg(md5(n::text || k::text), '') from generate_series(1, 96) as k) || '"}]}'
    from generate_series(1, ${OCCURRENCES}) as n;`;

const folder = foldersBeforePartitions();
let database: Database;
let dropDatabase = async () => {};
if (args.smoke) {
  const client = new PGlite();
  await migratePglite(drizzlePglite(client), { migrationsFolder: folder });
  await client.exec(SEED);
  database = createDatabase({ pgliteDataDir: "memory://", pgliteClient: client });
} else {
  const server = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `faultline_bench_upgrade_${randomBytes(4).toString("hex")}`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const old = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await migratePostgres(drizzlePostgres(old), { migrationsFolder: folder });
  const seeded = performance.now();
  await old.unsafe(SEED);
  await old.unsafe("vacuum analyze occurrences");
  await old.end();
  console.log(`seeded ${OCCURRENCES} occurrences in the unpartitioned table in ${Math.round(performance.now() - seeded)} ms`);
  database = createDatabase({ databaseUrl: url.toString(), pgliteDataDir: "" });
  dropDatabase = async () => {
    const cleanup = postgres(server, { max: 1, onnotice: () => {} });
    await cleanup.unsafe(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  };
}
rmSync(folder, { recursive: true, force: true });

try {
  const progress: string[] = [];
  const started = performance.now();
  await database.migrate((message, fields) => progress.push(`${message} ${JSON.stringify(fields)}`));
  const ms = performance.now() - started;
  const [check] = await executeRows<{ n: number; distinct_ids: number; misplaced: number }>(
    database.db,
    sql`select count(*)::int as n, count(distinct id)::int as distinct_ids,
               count(*) filter (where tableoid::regclass::text <> 'occurrences_p' || to_char(date_trunc('week', received_on), 'YYYYMMDD'))::int as misplaced
          from occurrences`,
  );
  if (check.n !== OCCURRENCES || check.distinct_ids !== OCCURRENCES || check.misplaced !== 0) {
    throw new Error(
      `after the upgrade: ${check.n} rows, ${check.distinct_ids} distinct ids, ${check.misplaced} in the wrong partition (expected ${OCCURRENCES})`,
    );
  }
  if (!progress.some((line) => line.startsWith("moved occurrences into week partitions"))) throw new Error("no progress line was logged");
  console.log(progress.join("\n"));
  console.log(`\n| occurrences | days | start with the move s | rows/s | progress lines |`);
  console.log(`| ---: | ---: | ---: | ---: | ---: |`);
  console.log(
    `| ${OCCURRENCES.toLocaleString("en")} | ${DAYS} | ${(ms / 1000).toFixed(1)} | ${Math.round(OCCURRENCES / (ms / 1000)).toLocaleString("en")} | ${progress.length} |`,
  );
  console.log(`\nbench:upgrade${args.smoke ? " smoke" : ""}: ok (every occurrence once, each in its week's partition)`);
} finally {
  await database.close();
  await dropDatabase();
}
