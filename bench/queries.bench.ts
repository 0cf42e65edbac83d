/**
 * Battery D2: triage queries at 1,000,000 occurrences over 20,000 issues and 90 days.
 * Seeds a fresh PostgreSQL database in bulk (SQL, not HTTP), then times the real service functions
 * and checks their plans for sequential scans of tenant tables.
 *   npm run bench:queries [-- --occurrences 1000000 --issues 20000 --runs 50 --write]
 * The server is BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); the run
 * creates its own database there and drops it at the end.
 *   npm run bench:queries -- --smoke
 * seeds 3,000 occurrences on PGlite in memory (on a throwaway database of DATABASE_URL's server
 * when that is set), runs every case twice and checks the seeded counters: no timing targets.
 */
import { execSync } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { sql } from "drizzle-orm";
import type { Db } from "../src/server/db/client";
import { executeRows } from "../src/server/db/execute";
import { getIssue, listIssues } from "../src/server/issues/issue.service";
import { listExceptions } from "../src/server/exceptions/exception.service";
import { dailyStats } from "../src/server/stats/stats.service";
import { DailyStatsInput, ListExceptionsInput, ListIssuesInput } from "../src/shared/triage.inputs";
import { parseBenchArgs } from "./bench-args";
import { openBenchDatabase, type PlanNode } from "./bench-database";
import { appendResults } from "./report";
import { seedMillion } from "./seed-million";

const args = parseBenchArgs(process.argv.slice(2));
const OCCURRENCES = args.number("--occurrences", args.smoke ? 3_000 : 1_000_000);
const ISSUES = args.number("--issues", args.smoke ? 200 : 20_000);
const RUNS = args.number("--runs", args.smoke ? 2 : 50);
const WARMUPS = args.smoke ? 1 : 5;
const OTHER_TENANTS = 4;
const TENANT_TABLES = ["issues", "occurrences", "issue_daily_counts", "issue_hourly_counts", "issue_tag_counts", "issue_activities", "events", "projects"];
/** A sequential scan of a table this small is the planner being right, not a missing index. */
const SMALL_TABLE_ROWS = 10_000;

const serverUrl = args.smoke ? process.env.DATABASE_URL : (process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const bench = await openBenchDatabase(serverUrl, "faultline_bench_queries");
const { database } = bench;
try {
  const seededAt = performance.now();
  const target = await seedMillion(database.db, { issues: ISSUES, occurrences: OCCURRENCES, days: 90, otherTenants: OTHER_TENANTS });
  console.log(`seeded ${OCCURRENCES} occurrences / ${ISSUES} issues on ${bench.engine} in ${Math.round(performance.now() - seededAt)} ms`);
  await checkSeed(database.db, target.projectId);

  const sizes = await executeRows<{ relname: string; reltuples: number }>(
    database.db,
    sql`select relname, reltuples::float8 as reltuples from pg_class where relkind = 'r'`,
  );
  const largeTables = new Set(sizes.filter((t) => TENANT_TABLES.includes(t.relname) && Number(t.reltuples) > SMALL_TABLE_ROWS).map((t) => t.relname));

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

  const rows: Row[] = [];
  for (const [label, run] of Object.entries(cases)) {
    for (let i = 0; i < WARMUPS; i++) await run(database.db);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await run(database.db);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    bench.captured.length = 0;
    await run(bench.traced);
    if (bench.captured.length === 0) throw new Error(`${label}: the traced run recorded no statement to EXPLAIN`);
    const seqScans = new Set<string>();
    for (const query of bench.captured) {
      const walk = (node: PlanNode) => {
        if (node["Node Type"] === "Seq Scan" && largeTables.has(String(node["Relation Name"]))) seqScans.add(String(node["Relation Name"]));
        for (const child of node.Plans ?? []) walk(child);
      };
      walk(await bench.explain(query));
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
  report(rows);
} finally {
  await bench.close();
}
process.exit(0);

interface Row {
  name: string;
  p50: number;
  p95: number;
  seqScans: string[];
}

/**
 * The seed derives every counter from the occurrences it inserted; if a schema change breaks one
 * of its statements' meaning (not only its syntax), the figures would be for the wrong data.
 */
async function checkSeed(db: Db, projectId: string) {
  const [counts] = await executeRows<{ occurrences: number; counted: number; daily: number; tagged: number; issues: number }>(
    db,
    sql`select (select count(*)::int from occurrences where project_id = ${projectId}::uuid) as occurrences,
               (select coalesce(sum(event_count), 0)::int from issues where project_id = ${projectId}::uuid) as counted,
               (select coalesce(sum(count), 0)::int from issue_daily_counts where project_id = ${projectId}::uuid) as daily,
               (select coalesce(sum(count), 0)::int from issue_tag_counts where project_id = ${projectId}::uuid and key = 'browser') as tagged,
               (select count(*)::int from issues where project_id = ${projectId}::uuid and event_count > 0) as issues`,
  );
  const problems = [
    counts.occurrences !== OCCURRENCES && `${counts.occurrences} occurrences stored, ${OCCURRENCES} asked`,
    counts.counted !== counts.occurrences && `issue event counts sum to ${counts.counted}`,
    counts.daily !== counts.occurrences && `daily rollups sum to ${counts.daily}`,
    counts.tagged !== counts.occurrences && `browser tag counts sum to ${counts.tagged}`,
    counts.issues === 0 && "no issue received an occurrence",
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`seeded data is inconsistent: ${problems.join("; ")}`);
}

function report(rows: Row[]) {
  const table = [
    `Seeded: ${OCCURRENCES.toLocaleString("en")} occurrences over ${ISSUES.toLocaleString("en")} issues and 90 days in the measured project, plus ${OTHER_TENANTS} other organizations with as many issues and a tenth of the events each; ${RUNS} timed runs per query after ${WARMUPS} warm-ups.`,
    "",
    "| query | p50 ms | p95 ms | sequential scans of tenant tables over 10,000 rows |",
    "| --- | ---: | ---: | --- |",
    ...rows.map((r) => `| ${r.name} | ${r.p50} | ${r.p95} | ${r.seqScans.length ? r.seqScans.join(", ") : "none"} |`),
  ].join("\n");
  console.log(`\n${table}\n`);
  if (args.smoke) {
    console.log(`bench:queries smoke: ok (${rows.length} cases on ${bench.engine}; timings at this size mean nothing)`);
    return;
  }
  if (args.write) {
    const commit = execSync("git rev-parse --short HEAD").toString().trim();
    const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${bench.engine}`;
    appendResults("bench:queries (D2)", { commit, machine, method: "service functions called in-process against the seeded database." }, table);
  }
  const failed = rows.filter((r) => r.p95 >= 50 || r.seqScans.length > 0);
  if (failed.length > 0) console.log(`over target (p95 ≥ 50 ms or a sequential scan): ${failed.map((r) => r.name).join("; ")}`);
}
