/**
 * Battery D2: triage queries at 1,000,000 occurrences over 20,000 issues and 90 days.
 * Seeds a fresh PostgreSQL database in bulk (SQL, not HTTP), then times the real service functions
 * and checks their plans for sequential scans of tenant tables.
 *   npm run bench:queries [-- --occurrences 1000000 --runs 50 --write]
 */
import { execSync } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { createDatabase, type Db } from "../src/server/db/client";
import { executeRows } from "../src/server/db/execute";
import * as schema from "../src/server/db/schema/index";
import { getIssue, listIssues } from "../src/server/issues/issue.service";
import { listExceptions } from "../src/server/exceptions/exception.service";
import { dailyStats } from "../src/server/stats/stats.service";
import { DailyStatsInput, ListExceptionsInput, ListIssuesInput } from "../src/shared/triage.inputs";
import { appendResults } from "./report";
import { seedMillion } from "./seed-million";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const OCCURRENCES = arg("--occurrences", 1_000_000);
const ISSUES = arg("--issues", 20_000);
const RUNS = arg("--runs", 50);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const TENANT_TABLES = ["issues", "occurrences", "issue_daily_counts", "issue_hourly_counts", "issue_tag_counts", "issue_activities", "events", "projects"];
/** A sequential scan of a table this small is the planner being right, not a missing index. */
const SMALL_TABLE_ROWS = 10_000;

const name = `faultline_bench_queries_${Date.now()}`;
const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const database = createDatabase({ databaseUrl: url.toString(), pgliteDataDir: "" });
await database.migrate();

const seededAt = performance.now();
const target = await seedMillion(database.db, { issues: ISSUES, occurrences: OCCURRENCES, days: 90 });
console.log(`seeded ${OCCURRENCES} occurrences / ${ISSUES} issues in ${Math.round(performance.now() - seededAt)} ms`);

const sizes = await executeRows<{ relname: string; reltuples: number }>(
  database.db,
  sql`select relname, reltuples::float8 as reltuples from pg_class where relkind = 'r'`,
);
const largeTables = new Set(sizes.filter((t) => TENANT_TABLES.includes(t.relname) && Number(t.reltuples) > SMALL_TABLE_ROWS).map((t) => t.relname));

// A second connection whose drizzle logger records every statement a case runs, for EXPLAIN.
const captured: { query: string; params: unknown[] }[] = [];
const tracingClient = postgres(url.toString(), { max: 2, onnotice: () => {} });
const traced = drizzle(tracingClient, { schema, logger: { logQuery: (query, params) => captured.push({ query, params }) } }) as unknown as Db;

const projectId = target.projectId;
const org = { organizationId: target.organizationId, userId: "bench", role: "owner" };
const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const [largest] = await executeRows<{ id: string }>(
  database.db,
  sql`select id from issues where project_id = ${projectId}::uuid order by event_count desc limit 1`,
);

const cases: Record<string, (db: Db) => Promise<unknown>> = {
  "issue list, page 1 (lastSeen:DESC)": (db) => listIssues({ db, org }, ListIssuesInput.parse({ projectId })),
  "issue list sorted by event count": (db) => listIssues({ db, org }, ListIssuesInput.parse({ projectId, sort: "eventCount:DESC" })),
  "issue list, environment + date filter": (db) =>
    listIssues({ db, org }, ListIssuesInput.parse({ projectId, environments: ["STAGING"], dateFrom: new Date(Date.now() - 30 * 86_400_000) })),
  "issue list, free-text query": (db) => listIssues({ db, org }, ListIssuesInput.parse({ projectId, query: "module 42" })),
  "issue detail + first 5 exceptions": (db) =>
    Promise.all([
      getIssue({ db, org }, { projectId, issueId: largest.id }),
      listExceptions({ db, org }, ListExceptionsInput.parse({ projectId, issueId: largest.id, size: 5 })),
    ]),
  "exceptions page 1 of the largest issue": (db) => listExceptions({ db, org }, ListExceptionsInput.parse({ projectId, issueId: largest.id })),
  "30-day daily statistics": (db) => dailyStats({ db, org }, DailyStatsInput.parse({ projectId, from: day(29), to: day(0) })),
};

interface Row {
  name: string;
  p50: number;
  p95: number;
  seqScans: string[];
}
const rows: Row[] = [];
for (const [label, run] of Object.entries(cases)) {
  for (let i = 0; i < 5; i++) await run(database.db);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run(database.db);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  captured.length = 0;
  await run(traced);
  const seqScans = new Set<string>();
  for (const { query, params } of captured) {
    const [plan] = await tracingClient.unsafe(`explain (format json) ${query}`, params as never[]);
    const walk = (node: Record<string, unknown>) => {
      if (node["Node Type"] === "Seq Scan" && largeTables.has(String(node["Relation Name"]))) seqScans.add(String(node["Relation Name"]));
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk((plan["QUERY PLAN"] as { Plan: Record<string, unknown> }[])[0].Plan);
  }
  const row = {
    name: label,
    p50: Math.round(times[Math.floor(RUNS * 0.5)] * 10) / 10,
    p95: Math.round(times[Math.min(RUNS - 1, Math.floor(RUNS * 0.95))] * 10) / 10,
    seqScans: [...seqScans],
  };
  console.log(JSON.stringify(row));
  rows.push(row);
}

await tracingClient.end();
await database.close();
await admin.unsafe(`drop database if exists ${name} with (force)`);
await admin.end();

const commit = execSync("git rev-parse --short HEAD").toString().trim();
const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, PostgreSQL 15`;
const table = [
  `Seeded: ${OCCURRENCES.toLocaleString("en")} occurrences over ${ISSUES.toLocaleString("en")} issues and 90 days in the measured project, plus 4 other organizations with as many issues and a tenth of the events each; ${RUNS} timed runs per query after 5 warm-ups.`,
  "",
  "| query | p50 ms | p95 ms | sequential scans of tenant tables over 10,000 rows |",
  "| --- | ---: | ---: | --- |",
  ...rows.map((r) => `| ${r.name} | ${r.p50} | ${r.p95} | ${r.seqScans.length ? r.seqScans.join(", ") : "none"} |`),
].join("\n");
console.log(`\n${table}\n`);
if (args.includes("--write"))
  appendResults("bench:queries (D2)", { commit, machine, method: "service functions called in-process against the seeded database." }, table);
const failed = rows.filter((r) => r.p95 >= 50 || r.seqScans.length > 0);
if (failed.length > 0) console.log(`over target (p95 ≥ 50 ms or a sequential scan): ${failed.map((r) => r.name).join("; ")}`);
process.exit(0);
