/**
 * Issue 35: deleting a project of N occurrences while ingest into another project goes on. Seeds
 * the doomed project in bulk (SQL, as bench:queries does), starts the real app in this process
 * (the deletion job runs in the same event loop and database pool as ingest, as it does in
 * production), asks the deletion as the service does and runs the job's code, while one envelope
 * after another (4 at a time) goes to another project's DSN. Prints the deletion's time and the
 * ingest latency before and during it, and checks that no row of the project is left.
 *   npm run bench:deletion [-- --occurrences 1000000]
 * The server is BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); the run
 * creates its own database there and drops it at the end.
 *   npm run bench:deletion -- --smoke
 * deletes 3,000 occurrences on PGlite in memory (on a throwaway database of DATABASE_URL's server
 * when that is set): correctness only, no timing targets.
 */
import { sql } from "drizzle-orm";
import { fail, parseBenchArgs } from "./bench-args";
import { ingestBeside, latencyAt } from "./ingest-beside";
import { seedMillion } from "./seed-million";

const args = parseBenchArgs(process.argv.slice(2));
if (args.write) fail("bench:deletion prints its table; copy it into bench/README.md with the machine's load (--write is not supported)");
const OCCURRENCES = args.number("--occurrences", args.smoke ? 3_000 : 1_000_000);
const CONCURRENCY = 4;

/** Nearest-rank p50 and p99 of the latencies. */
function p50p99(latencies: number[]) {
  return { p50: latencyAt(latencies, 0.5), p99: latencyAt(latencies, 0.99) };
}
if (!args.smoke) process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

// Imported after DATABASE_URL is settled: the test database helper reads it when loaded.
const { startTestServer } = await import("../test/helpers/test-server");
const { seedProject } = await import("../test/helpers/seed");
const { executeRows } = await import("../src/server/db/execute");
const { runDeletion } = await import("../src/server/deletions/deletion-run");
const { DELETION_BATCH_SIZE } = await import("../src/server/deletions/deletion-jobs");

const server = await startTestServer({ env: { LOG_LEVEL: "error" } });
const { db } = server.database;
try {
  const seededAt = performance.now();
  const doomed = await seedMillion(db, { issues: Math.max(10, Math.round(OCCURRENCES / 50)), occurrences: OCCURRENCES, days: 30, otherTenants: 1 });
  console.log(`seeded ${OCCURRENCES} occurrences in ${Math.round(performance.now() - seededAt)} ms (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`);
  const live = await seedProject(db, "bench-deletion-ingest");
  const ingestUrl = `${server.url}/api/${live.number}/envelope/?sentry_key=${live.publicKey}`;

  const ingest = ingestBeside(ingestUrl, CONCURRENCY);
  const baseline: number[] = [];
  const baselineUntil = performance.now() + (args.smoke ? 500 : 5_000);
  await ingest.while(() => performance.now() < baselineUntil, baseline);

  // As requestProjectDeletion does (the row, the mark), then the job's own code.
  const [{ id: deletionId }] = await executeRows<{ id: string }>(
    db,
    sql`insert into deletions (organization_id, kind, target, target_name, requested_by) values (${doomed.organizationId}, 'project', ${doomed.projectId}, 'bench', 'user:bench') returning id`,
  );
  await db.execute(sql`update projects set deletion_id = ${deletionId}::uuid where id = ${doomed.projectId}::uuid`);
  const during: number[] = [];
  let deleting = true;
  const startedAt = performance.now();
  const load = ingest.while(() => deleting, during);
  await runDeletion({ db, logger: server.services.logger, batchSize: DELETION_BATCH_SIZE }, { deletionId }).finally(() => (deleting = false));
  const deletionMs = performance.now() - startedAt;
  await load;

  const [left] = await executeRows<{ count: string | number }>(db, sql`select count(*) as count from occurrences where project_id = ${doomed.projectId}::uuid`);
  const [project] = await executeRows<{ count: string | number }>(db, sql`select count(*) as count from projects where id = ${doomed.projectId}::uuid`);
  if (Number(left.count) !== 0 || Number(project.count) !== 0) throw new Error(`rows left: ${left.count} occurrences, ${project.count} project rows`);
  const [row] = await executeRows<{ done: string | number; total: string | number; status: string }>(
    db,
    sql`select done, total, status from deletions where id = ${deletionId}::uuid`,
  );
  if (row.status !== "done" || Number(row.done) !== Number(row.total)) throw new Error(`deletion ended ${row.status} at ${row.done}/${row.total}`);

  const before = p50p99(baseline);
  const while_ = p50p99(during);
  console.log(`\n| occurrences | deletion s | rows/s | ingest p50 / p99 ms before | ingest p50 / p99 ms during | envelopes during |`);
  console.log(`| ---: | ---: | ---: | ---: | ---: | ---: |`);
  console.log(
    `| ${OCCURRENCES.toLocaleString("en")} | ${(deletionMs / 1000).toFixed(1)} | ${Math.round(OCCURRENCES / (deletionMs / 1000)).toLocaleString("en")} | ${before.p50} / ${before.p99} | ${while_.p50} / ${while_.p99} | ${during.length} |`,
  );
  console.log(`\nbench:deletion${args.smoke ? " smoke" : ""}: ok (no row of the project left; deletion ${row.done}/${row.total})`);
} finally {
  await server.close();
}
