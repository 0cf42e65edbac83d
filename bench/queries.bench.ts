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
import type { Db } from "../src/server/db/client";
import { getIssue, listIssues } from "../src/server/issues/issue.service";
import { listExceptions } from "../src/server/exceptions/exception.service";
import { dailyStats } from "../src/server/stats/stats.service";
import { organizationStorage } from "../src/server/storage/storage.service";
import { DailyStatsInput, ListExceptionsInput, ListIssuesInput } from "../src/shared/triage.inputs";
import { parseBenchArgs } from "./bench-args";
import { openBenchDatabase } from "./bench-database";
import { largeTenantTables, sequentialScans } from "./plan-check";
import { appendResults, currentCommit, machineDescription } from "./report";
import { checkSeed, largestIssue, seedMillion } from "./seed-million";
import { percentiles, timeRuns } from "./timing";

const args = parseBenchArgs(process.argv.slice(2));
const OCCURRENCES = args.number("--occurrences", args.smoke ? 3_000 : 1_000_000);
const ISSUES = args.number("--issues", args.smoke ? 200 : 20_000);
const RUNS = args.number("--runs", args.smoke ? 2 : 50);
const WARMUPS = args.smoke ? 1 : 5;
const OTHER_TENANTS = 4;

const serverUrl = args.smoke ? process.env.DATABASE_URL : (process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const bench = await openBenchDatabase(serverUrl, "faultline_bench_queries");
const { database } = bench;
try {
  const seededAt = performance.now();
  const target = await seedMillion(database.db, { issues: ISSUES, occurrences: OCCURRENCES, days: 90, otherTenants: OTHER_TENANTS });
  console.log(`seeded ${OCCURRENCES} occurrences / ${ISSUES} issues on ${bench.engine} in ${Math.round(performance.now() - seededAt)} ms`);
  await checkSeed(database.db, target.projectId, OCCURRENCES);
  const largeTables = await largeTenantTables(database.db);

  const projectId = target.projectId;
  const org = { organizationId: target.organizationId, userId: "bench", role: "owner" };
  const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const largest = await largestIssue(database.db, projectId);

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
    // Issue 35: the organization's storage card (rollup sums and a 200-row size sample per project).
    "organization storage": (db) => organizationStorage({ db, org }),
  };

  const rows: Row[] = [];
  for (const [label, run] of Object.entries(cases)) {
    const times = await timeRuns(() => run(database.db), { warmups: WARMUPS, runs: RUNS });
    const { p50, p95 } = percentiles(times);
    const row = { name: label, p50, p95, seqScans: await sequentialScans(bench, largeTables, label, run) };
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
    appendResults(
      "bench:queries (D2)",
      { commit: currentCommit(), machine: machineDescription(bench.engine), method: "service functions called in-process against the seeded database." },
      table,
    );
  }
  const failed = rows.filter((r) => r.p95 >= 50 || r.seqScans.length > 0);
  if (failed.length > 0) console.log(`over target (p95 ≥ 50 ms or a sequential scan): ${failed.map((r) => r.name).join("; ")}`);
}
