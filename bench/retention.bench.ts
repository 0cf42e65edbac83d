/**
 * Issue 35: retention by week partitions while ingest goes on. Seeds N occurrences over 30 days
 * (SQL, as bench:queries does) into week partitions, then runs the maintenance job's code as of
 * now with a 10-day retention for every project — the weeks wholly older dropped, the older rows
 * of the week the cutoff falls in deleted (the edge) — while envelopes go to another project's DSN, 4 at a time. Prints the
 * time per dropped partition, the whole run, and ingest latency before and during; checks that
 * nothing older than the cutoff is left and that every newer row is.
 *   npm run bench:retention [-- --occurrences 1000000]
 * The server is BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); the run
 * creates its own database there and drops it at the end.
 *   npm run bench:retention -- --smoke
 * 3,000 occurrences on PGlite in memory (a throwaway database of DATABASE_URL's server when set):
 * correctness only, no timing targets.
 */
import { sql } from "drizzle-orm";
import { fail, parseBenchArgs } from "./bench-args";
import { ingestBeside, latencyAt } from "./ingest-beside";
import { seedMillion } from "./seed-million";

const args = parseBenchArgs(process.argv.slice(2));
if (args.write) fail("bench:retention prints its table; copy it into bench/README.md with the machine's load (--write is not supported)");
const OCCURRENCES = args.number("--occurrences", args.smoke ? 3_000 : 1_000_000);
const RETENTION_DAYS = 10;
const CONCURRENCY = 4;
const DAY_MS = 86_400_000;

if (!args.smoke) process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

// Imported after DATABASE_URL is settled: the test database helper reads it when loaded.
const { startTestServer } = await import("../test/helpers/test-server");
const { seedProject } = await import("../test/helpers/seed");
const { executeRows } = await import("../src/server/db/execute");
const { runMaintenance } = await import("../src/server/retention/maintenance-run");

const server = await startTestServer({ env: { LOG_LEVEL: "error" } });
const { db } = server.database;
const count = async (where: ReturnType<typeof sql>) =>
  Number((await executeRows<{ n: string | number }>(db, sql`select count(*) as n from occurrences where ${where}`))[0].n);
try {
  const seededAt = performance.now();
  await seedMillion(db, { issues: Math.max(10, Math.round(OCCURRENCES / 50)), occurrences: OCCURRENCES, days: 30, otherTenants: 1 });
  console.log(`seeded ${OCCURRENCES} occurrences in ${Math.round(performance.now() - seededAt)} ms (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`);
  const live = await seedProject(db, "bench-retention-ingest");
  const ingestUrl = `${server.url}/api/${live.number}/envelope/?sentry_key=${live.publicKey}`;

  const ingest = ingestBeside(ingestUrl, CONCURRENCY);
  const baseline: number[] = [];
  const baselineUntil = performance.now() + (args.smoke ? 500 : 5_000);
  await ingest.while(() => performance.now() < baselineUntil, baseline);

  const asOf = new Date();
  const cutoff = new Date(asOf.getTime() - RETENTION_DAYS * DAY_MS);
  const keptBefore = await count(sql`received_at >= ${cutoff.toISOString()}::timestamptz and project_id <> ${live.projectId}::uuid`);
  const goingBefore = await count(sql`received_at < ${cutoff.toISOString()}::timestamptz`);
  const projects = await executeRows<{ organizationId: string; projectId: string }>(
    db,
    sql`select organization_id as "organizationId", id::text as "projectId" from projects`,
  );
  const during: number[] = [];
  let running = true;
  const startedAt = performance.now();
  const load = ingest.while(() => running, during);
  const summary = await runMaintenance(db, {
    asOf,
    projects: projects.map((p) => ({ ...p, retentionDays: RETENTION_DAYS })),
    fallbackDays: RETENTION_DAYS,
  }).finally(() => (running = false));
  const runMs = performance.now() - startedAt;
  await load;
  if (!summary) throw new Error("the maintenance lease was held by another run");

  const left = await count(sql`received_at < ${cutoff.toISOString()}::timestamptz`);
  const kept = await count(sql`received_at >= ${cutoff.toISOString()}::timestamptz and project_id <> ${live.projectId}::uuid`);
  if (left !== 0) throw new Error(`${left} occurrences older than the cutoff are left`);
  if (kept !== keptBefore) throw new Error(`kept ${kept} of ${keptBefore} occurrences newer than the cutoff`);
  const dropped = summary.retention.droppedPartitions.filter((p) => p.table === "occurrences");
  const droppedRows = dropped.reduce((sum, p) => sum + p.rows, 0);
  if (droppedRows + summary.retention.edgeRows.occurrences !== goingBefore) {
    throw new Error(`${droppedRows} rows dropped + ${summary.retention.edgeRows.occurrences} at the edge ≠ ${goingBefore} past retention`);
  }
  const times = dropped.map((p) => p.durationMs);
  console.log(
    `\n| occurrences | weeks dropped | rows in them | ms per week p50 / max | edge rows | run s | ingest p50 / p99 ms before | during | envelopes during |`,
  );
  console.log(`| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
  console.log(
    `| ${OCCURRENCES.toLocaleString("en")} | ${dropped.length} | ${droppedRows.toLocaleString("en")} | ${latencyAt(times, 0.5)} / ${latencyAt(times, 1)} | ${summary.retention.edgeRows.occurrences.toLocaleString("en")} | ${(runMs / 1000).toFixed(1)} | ${latencyAt(baseline, 0.5)} / ${latencyAt(baseline, 0.99)} | ${latencyAt(during, 0.5)} / ${latencyAt(during, 0.99)} | ${during.length} |`,
  );
  console.log(`\nbench:retention${args.smoke ? " smoke" : ""}: ok (nothing older than ${RETENTION_DAYS} days left, every newer row kept)`);
} finally {
  await server.close();
}
