/**
 * Battery D1: ingest throughput and acknowledgement latency.
 * Runs the real server as a child process (API only) on PostgreSQL and on PGlite, plus a bare
 * node:http receiver that parses and discards the same envelopes (the ceiling), and drives each
 * at 8/32/128 keep-alive connections from this process (a raw-socket generator, see
 * load-generator.ts). Prints a Markdown table; `--write` replaces its section in bench/README.md.
 *   npm run bench:ingest [-- --seconds 10 --write]
 * The PostgreSQL server is BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 *   npm run bench:ingest -- --only postgres --connections 32 [--alert-rules 10] [--warmup 20]
 * measures one target at one connection count (quick interleaved before/after pairs; never written).
 * `--warmup N` loads each target for N s before measuring (default 2; see WARMUP_SECONDS).
 *   npm run bench:ingest -- --only pglite --connections 32 --source-maps uploaded|absent
 * sends the mix's JavaScript events as thrown from a minified bundle (source-map-traffic.ts), to a
 * project with its map uploaded (symbolicated at ingest) or without (the same traffic, unmapped).
 *   npm run bench:ingest -- --only postgres --connections 32 --sessions 0.5 [--restart-postgres]
 * makes that fraction of the requests release-health envelopes (session-mix.ts: `session` updates
 * and `sessions` aggregates), reports events/s for the events alone and whether the stored
 * release-health counts equal what the acknowledged session envelopes said. `--restart-postgres`
 * runs the server on a private PostgreSQL cluster restarted (`pg_ctl restart -m fast`) halfway
 * through the measured window: acknowledged = stored is then the figure, not the speed.
 *   npm run bench:ingest -- --smoke
 * drives the bare receiver and one server (PGlite, or PostgreSQL when DATABASE_URL is set) for
 * about a second at 8 connections, and fails unless every event is acknowledged and stored.
 */
import { execSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import path from "node:path";
import { seedProject } from "../test/helpers/seed";
import { freePort, startAppProcess } from "../test/helpers/app-process";
import { createEnvelopeMix } from "./envelope-mix";
import { cpuSeconds, postgresCpuSeconds } from "./process-cpu";
import { driveLoad } from "./load-generator";
import { fail, parseBenchArgs } from "./bench-args";
import { appendResults } from "./report";
import { seedAlertRules } from "./seed-alert-rules";
import { buildBundleTraffic, throwFromBundle, uploadBundleMap } from "./source-map-traffic";
import { countStoredEvents, openServerDatabase, sumStoredHealth } from "./server-database";
import { withSessions, type HealthTotals } from "./session-mix";
import { startPrivatePostgres, type PrivatePostgres } from "../test/helpers/private-postgres";

const args = parseBenchArgs(process.argv.slice(2));
const SECONDS = args.number("--seconds", args.smoke ? 1 : 10);
/** Active alert rules on the project (issue 18 measures ingest with 10); none by default. */
const ALERT_RULES = process.argv.includes("--alert-rules") ? args.number("--alert-rules", 10) : 0;
/**
 * Load before each measured window (JIT, caches, connections). `--warmup N` lengthens it: V8 is still
 * compiling the hot path for the first 10–15 s of load, so the default 2 s measures a freshly
 * started server, a longer one the steady state a long-running server is in.
 */
const WARMUP_SECONDS = args.smoke ? 0 : args.number("--warmup", 2);
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : null;
if (ONLY !== null && !["bare", "postgres", "pglite"].includes(ONLY)) fail(`--only needs bare, postgres or pglite (got ${ONLY ?? "nothing"})`);
const CONNECTIONS = args.smoke ? [8] : process.argv.includes("--connections") ? [args.number("--connections", 32)] : [8, 32, 128];
if (args.write && (ONLY !== null || CONNECTIONS.length === 1)) fail("a partial run (--only, --connections) is not written to bench/README.md (drop --write)");
const SOURCE_MAPS = process.argv.includes("--source-maps") ? process.argv[process.argv.indexOf("--source-maps") + 1] : null;
if (SOURCE_MAPS !== null && !["absent", "uploaded"].includes(SOURCE_MAPS)) fail(`--source-maps needs absent or uploaded (got ${SOURCE_MAPS ?? "nothing"})`);
if (args.write && SOURCE_MAPS !== null) fail("a --source-maps run is not written to bench/README.md (drop --write)");
const bundleTraffic = SOURCE_MAPS === null ? null : await buildBundleTraffic();
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** `--sessions F`: the fraction of requests that are release-health envelopes (0 to 1). */
const SESSIONS = process.argv.includes("--sessions") ? Number(process.argv[process.argv.indexOf("--sessions") + 1]) : 0;
if (!(SESSIONS >= 0 && SESSIONS <= 1)) fail("--sessions needs a fraction between 0 and 1");
const RESTART_POSTGRES = process.argv.includes("--restart-postgres");
if (RESTART_POSTGRES && ONLY !== "postgres") fail("--restart-postgres needs --only postgres");
if (args.write && (SESSIONS > 0 || RESTART_POSTGRES)) fail("a --sessions or --restart-postgres run is not written to bench/README.md (drop --write)");
/** The private cluster `--restart-postgres` restarts (never the shared server other work uses). */
const privatePostgres: PrivatePostgres | null = RESTART_POSTGRES ? await startPrivatePostgres() : null;

/** Every process this script starts, killed if it stops early (a failed run must not leave servers behind). */
const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  privatePostgres?.destroy();
});

interface Row {
  target: string;
  connections: number;
  acked: number;
  eventsPerSecond: number;
  p50: number;
  p99: number;
  cpuPer10k: number;
  /** PostgreSQL's own processes (null: the target has no separate database server). */
  databaseCpuPer10k: number | null;
  peakRssMb: number;
  lost: number | string;
  errors: string;
  loadCpuPer10k: number;
  /** With --sessions: session envelopes acknowledged per second, and the stored counts against the acknowledged ones. */
  sessionEnvelopesPerSecond?: number;
  health?: string;
}

const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

interface Target {
  url: string;
  /** Where the warm-up goes, when not to `url` (--sessions: a project of its own). */
  warmUpUrl?: string;
  pid: number;
  /** Whether a PostgreSQL server does the storing (its CPU is then reported too). */
  postgres: boolean;
  /**
   * Stops the target and answers how many of the acknowledged event ids are in its database, and its
   * release-health counts (null: stores nothing).
   */
  finish: (acked: string[]) => Promise<{ stored: number | null; health: HealthTotals | null }>;
}

const per10k = (seconds: number, events: number) => Math.round((seconds / Math.max(1, events)) * 10_000 * 100) / 100;

async function benchTarget(name: string, start: () => Promise<Target>) {
  const rows: Row[] = [];
  const events = createEnvelopeMix(200, bundleTraffic ? throwFromBundle(bundleTraffic) : undefined);
  const mix = SESSIONS > 0 ? withSessions(events, SESSIONS) : null;
  const next = mix?.next ?? events;
  for (const connections of CONNECTIONS) {
    const target = await start();
    if (WARMUP_SECONDS > 0) await driveLoad(target.warmUpUrl ?? target.url, connections, WARMUP_SECONDS, next); // warm-up (JIT, caches, connections)
    const cpuBefore = cpuSeconds(target.pid);
    const databaseBefore = target.postgres ? postgresCpuSeconds() : 0;
    const loadBefore = process.cpuUsage();
    const restart = privatePostgres ? setTimeout(() => privatePostgres.restart("fast"), (SECONDS * 1000) / 2) : null;
    const run = await driveLoad(target.url, connections, SECONDS, next);
    if (restart) clearTimeout(restart);
    // Warm-up ids are not in `run.acked`, so the release-health check gets its own project below.
    const split = mix ? mix.split(run.acked) : { events: run.acked, sessionEnvelopes: 0, expected: null };
    const cpu = cpuSeconds(target.pid) - cpuBefore;
    // A restarted cluster's processes are new ones: their CPU cannot be measured across the restart.
    const databaseCpu = target.postgres && !privatePostgres ? postgresCpuSeconds() - databaseBefore : null;
    const load = process.cpuUsage(loadBefore);
    const rss = peakRssMb(target.pid);
    const { stored, health } = await target.finish(split.events);
    const row: Row = {
      target: name,
      connections,
      acked: split.events.length,
      eventsPerSecond: Math.round(split.events.length / SECONDS),
      p50: Math.round(run.p50 * 10) / 10,
      p99: Math.round(run.p99 * 10) / 10,
      cpuPer10k: per10k(cpu, run.acked.length),
      databaseCpuPer10k: databaseCpu === null ? null : per10k(databaseCpu, run.acked.length),
      peakRssMb: Math.round(rss),
      lost: stored === null ? "n/a" : split.events.length - stored,
      errors:
        run.errors === 0
          ? "0"
          : `${run.errors} (${Object.entries(run.errorStatuses)
              .map(([status, n]) => `${status}×${n}`)
              .join(", ")})`,
      loadCpuPer10k: per10k((load.user + load.system) / 1e6, run.acked.length),
      // The bare receiver stores nothing: no release-health verdict for it.
      ...(split.expected && health
        ? {
            sessionEnvelopesPerSecond: Math.round(split.sessionEnvelopes / SECONDS),
            health: healthVerdict(split.expected, health),
          }
        : {}),
    };
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  return rows;
}

/** "exact" when the stored counts equal the acknowledged ones; else both, stored first. */
function healthVerdict(expected: HealthTotals, stored: HealthTotals) {
  const keys = ["sessions", "errored", "crashed", "abnormal"] as const;
  if (keys.every((key) => stored[key] === expected[key])) return `exact (${expected.sessions} sessions)`;
  return `stored ${JSON.stringify(stored)} ≠ acknowledged ${JSON.stringify(expected)}`;
}

/**
 * The server on a fresh database; counts what it stored (including the warm-up, so we compare ≥).
 * With --sessions the warm-up goes to another project, so the measured window's release-health
 * counts can be compared exactly.
 */
function serverTarget(kind: "postgres" | "pglite", adminUrl = privatePostgres?.url ?? ADMIN_URL) {
  return async () => {
    const opened = await openServerDatabase(kind, adminUrl, "faultline_bench");
    const { database, env, cleanup } = opened;
    const project = await seedProject(database.db, "bench");
    const measured = SESSIONS > 0 ? await seedProject(database.db, "bench-measured") : project;
    if (ALERT_RULES > 0) await seedAlertRules(database.db, project.organizationId, project.projectId, ALERT_RULES);
    if (bundleTraffic && SOURCE_MAPS === "uploaded") await uploadBundleMap(database.db, project, bundleTraffic);
    // PGlite allows one process at a time: hand the directory to the server.
    if (kind === "pglite") await database.close();
    const app = await startAppProcess(
      { ...env, LOG_LEVEL: "error" },
      undefined,
      process.env.BENCH_SERVER_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`] : [],
    );
    children.add(app.child);
    return {
      url: `${app.url}/api/${measured.number}/envelope/?sentry_key=${measured.publicKey}`,
      warmUpUrl: `${app.url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`,
      pid: app.child.pid!,
      postgres: kind === "postgres",
      finish: async (acked: string[]) => {
        app.child.kill("SIGTERM");
        await app.exited;
        const stored = await countStoredEvents(kind, opened, acked);
        const health = SESSIONS > 0 ? await sumStoredHealth(kind, opened, measured.projectId) : null;
        await cleanup();
        return { stored, health };
      },
    };
  };
}

/** The ceiling: node:http plus the same envelope parsing, nothing stored. */
function bareTarget() {
  return async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "bare-receiver.ts"), String(port)], {
      stdio: "inherit",
    });
    children.add(child);
    const url = `http://127.0.0.1:${port}/api/1/envelope/`;
    for (let i = 0; i < 100; i++) {
      try {
        await fetch(url, { method: "POST", body: "{}\n" });
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return {
      url,
      pid: child.pid!,
      postgres: false,
      finish: async () => {
        child.kill("SIGTERM");
        await new Promise((resolve) => child.on("exit", resolve));
        return { stored: null, health: null };
      },
    };
  };
}

const rows: Row[] = [];
if (ONLY === null || ONLY === "bare") rows.push(...(await benchTarget("bare node:http (parse only)", bareTarget())));
if (args.smoke) {
  const smokeUrl = process.env.DATABASE_URL;
  rows.push(...(await benchTarget(`Faultline on ${smokeUrl ? "PostgreSQL" : "PGlite"}`, serverTarget(smokeUrl ? "postgres" : "pglite", smokeUrl))));
} else {
  if (ONLY === null || ONLY === "postgres") rows.push(...(await benchTarget("Faultline on PostgreSQL", serverTarget("postgres"))));
  if (ONLY === null || ONLY === "pglite") rows.push(...(await benchTarget("Faultline on PGlite", serverTarget("pglite"))));
}

const sessionColumns = SESSIONS > 0;
const table = [
  `| target | connections | events/s | p50 ms | p99 ms | server CPU-s / 10k events | PostgreSQL CPU-s / 10k | load generator CPU-s / 10k | peak RSS MB | lost | non-2xx |${sessionColumns ? " session envelopes/s | release health |" : ""}`,
  `| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |${sessionColumns ? " ---: | --- |" : ""}`,
  ...rows.map(
    (r) =>
      `| ${r.target} | ${r.connections} | ${r.eventsPerSecond} | ${r.p50} | ${r.p99} | ${r.cpuPer10k} | ${r.databaseCpuPer10k ?? "n/a"} | ${r.loadCpuPer10k} | ${r.peakRssMb} | ${r.lost} | ${r.errors} |${sessionColumns ? ` ${r.sessionEnvelopesPerSecond ?? "n/a"} | ${r.health ?? "n/a"} |` : ""}`,
  ),
].join("\n");
console.log(`\n${table}\n`);
if (args.smoke) {
  // Correctness only: at this size and on a shared machine the rates mean nothing.
  const broken = rows.filter(
    (r) => r.acked === 0 || r.errors !== "0" || (r.lost !== "n/a" && r.lost !== 0) || (r.health !== undefined && !r.health.startsWith("exact")),
  );
  if (broken.length > 0) {
    console.error(
      `bench:ingest smoke: FAILED for ${broken.map((r) => `${r.target} (acknowledged ${r.acked}, non-2xx ${r.errors}, lost ${r.lost}${r.health === undefined ? "" : `, release health ${r.health}`})`).join("; ")}`,
    );
    process.exit(1);
  }
  console.log(`bench:ingest smoke: ok (${rows.length} targets, every acknowledged event stored)`);
} else if (args.write) {
  const commit = execSync("git rev-parse --short HEAD").toString().trim();
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  appendResults(
    "bench:ingest (D1)",
    { commit, machine, method: `${SECONDS} s per run after a ${WARMUP_SECONDS} s warm-up; load generator on the same machine.` },
    table,
  );
}
process.exit(0);
