/**
 * Issue 31, finding 3 ("one DSN holder stalls every tenant"): while one key sends large gzip
 * envelopes (35 events, ≈ 19 MB decompressed, ≈ 160 KB on the wire; test/helpers/heavy-envelope.ts)
 * at a steady rate, how long does every other request wait? Polls `/api/health` (no database
 * access: its latency is the event loop's) and reports its p50/p99, the server's longest
 * event-loop block (bench/event-loop-probe.mjs), and what became of every event sent: stored,
 * refused with a 4xx, or lost (5xx, a dropped connection, or acknowledged but missing).
 *   npm run bench:stall [-- --seconds 20 --rate 4 --only postgres|pglite]
 *   npm run bench:stall -- --smoke      (2 s at 2 envelopes/s of 5 events on PGlite or DATABASE_URL's server; correctness only)
 * The PostgreSQL server is BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import path from "node:path";
import { seedProject } from "../test/helpers/seed";
import { startAppProcess } from "../test/helpers/app-process";
import { heavyEnvelope } from "../test/helpers/heavy-envelope";
import { fail, parseBenchArgs } from "./bench-args";
import { countStoredEvents, openServerDatabase } from "./server-database";

const args = parseBenchArgs(process.argv.slice(2));
if (args.write) fail("bench:stall prints its table; copy it into bench/README.md with the machine's load (--write is not supported)");
const SECONDS = args.number("--seconds", args.smoke ? 2 : 20);
const RATE = args.number("--rate", args.smoke ? 2 : 4);
const EVENTS = args.number("--events", args.smoke ? 5 : 35);
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : null;
if (ONLY !== null && !["postgres", "pglite"].includes(ONLY)) fail(`--only needs postgres or pglite (got ${ONLY ?? "nothing"})`);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PROBE = path.join(import.meta.dirname, "event-loop-probe.mjs");

interface Row {
  target: string;
  envelopes: number;
  healthP50: number;
  healthP99: number;
  healthMax: number;
  /** Health requests that failed (the server stopped or dropped the connection). */
  healthFailures: number;
  loopMaxMs: number | string;
  sent: number;
  stored: number;
  refused: string;
  lost: number;
}

async function openTarget(kind: "postgres" | "pglite", adminUrl: string) {
  const { database, env, cleanup } = await openServerDatabase(kind, adminUrl, "faultline_stall");
  const project = await seedProject(database.db, "stall");
  if (kind === "pglite") await database.close(); // one process at a time: the server takes the directory
  return { kind, env, database, project, cleanup };
}

/** Fresh envelopes (fresh event ids), built before the clock starts: building one costs the shared CPU ≈ 0.2 s. */
function buildEnvelopes(n: number) {
  return Array.from({ length: n }, (_, i) => heavyEnvelope({ events: EVENTS, tag: `stall${i % 3}` })).map(({ eventIds, gzipped }) => ({ eventIds, gzipped }));
}

async function benchTarget(name: string, kind: "postgres" | "pglite", adminUrl: string): Promise<Row> {
  const envelopes = buildEnvelopes(SECONDS * RATE);
  const target = await openTarget(kind, adminUrl);
  const app = await startAppProcess({ ...target.env, LOG_LEVEL: "error" }, undefined, ["--import", PROBE]);
  // A run stopped early must not leave its server behind.
  process.on("exit", () => app.child.exitCode === null && app.child.signalCode === null && app.child.kill("SIGKILL"));
  const ingestUrl = `${app.url}/api/${target.project.number}/envelope/?sentry_key=${target.project.publicKey}`;

  app.child.kill("SIGUSR2"); // the probe measures from here (bench/event-loop-probe.mjs)
  await new Promise((resolve) => setTimeout(resolve, 100));
  const health: number[] = [];
  let healthFailures = 0;
  let sending = true;
  const poll = (async () => {
    while (sending) {
      const started = performance.now();
      const ok = await fetch(`${app.url}/api/health`)
        .then(async (response) => (await response.arrayBuffer(), response.ok))
        .catch(() => false);
      if (ok) health.push(performance.now() - started);
      else healthFailures++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();

  const statuses: Record<string, number> = {};
  const acked: string[] = [];
  let refusedEvents = 0;
  const sends: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < envelopes.length; i++) {
    const due = started + (i * 1000) / RATE;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    const { eventIds, gzipped } = envelopes[i];
    sends.push(
      fetch(ingestUrl, {
        method: "POST",
        body: new Uint8Array(gzipped),
        headers: { "content-type": "application/x-sentry-envelope", "content-encoding": "gzip" },
      })
        .then(async (response) => {
          await response.arrayBuffer();
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          if (response.status === 200) acked.push(...eventIds);
          else if (response.status >= 400 && response.status < 500) refusedEvents += eventIds.length;
        })
        .catch(() => {
          statuses.failed = (statuses.failed ?? 0) + 1;
        }),
    );
  }
  await Promise.all(sends);
  sending = false;
  await poll;

  if (app.child.exitCode !== null) console.error(`the server stopped during the run:\n${app.output().slice(-2000)}`);
  app.child.kill("SIGTERM");
  await app.exited;
  const probe = /\{"eventLoopDelay":\{"maxMs":([\d.]+)/.exec(app.output());
  const allIds = envelopes.flatMap((envelope) => envelope.eventIds);
  const stored = await countStoredEvents(kind, target, allIds);
  await target.cleanup();

  health.sort((a, b) => a - b);
  const pct = (p: number) => Math.round(health[Math.min(health.length - 1, Math.floor(health.length * p))] * 10) / 10;
  const refusedStatuses = Object.entries(statuses).filter(([status]) => status !== "200");
  const row: Row = {
    target: name,
    envelopes: envelopes.length,
    healthP50: pct(0.5),
    healthP99: pct(0.99),
    healthMax: Math.round(health.at(-1)! * 10) / 10,
    healthFailures,
    loopMaxMs: probe ? Number(probe[1]) : "n/a",
    sent: allIds.length,
    stored,
    refused: refusedStatuses.length === 0 ? "0" : `${refusedEvents} (${refusedStatuses.map(([status, n]) => `${status}×${n}`).join(", ")})`,
    // Neither stored nor refused with a 4xx: a 5xx, a failed connection, or acknowledged and missing.
    lost: allIds.length - stored - refusedEvents,
  };
  console.log(JSON.stringify(row));
  return row;
}

const rows: Row[] = [];
if (args.smoke) {
  const smokeUrl = process.env.DATABASE_URL;
  rows.push(await benchTarget(`Faultline on ${smokeUrl ? "PostgreSQL" : "PGlite"}`, smokeUrl ? "postgres" : "pglite", smokeUrl ?? ADMIN_URL));
} else {
  if (ONLY === null || ONLY === "postgres") rows.push(await benchTarget("Faultline on PostgreSQL", "postgres", ADMIN_URL));
  if (ONLY === null || ONLY === "pglite") rows.push(await benchTarget("Faultline on PGlite", "pglite", ADMIN_URL));
}

console.log(
  [
    "",
    `${SECONDS} s at ${RATE} envelopes/s of ${EVENTS} events each`,
    "| target | envelopes | /api/health p50 ms | p99 ms | max ms | failed | longest event-loop block ms | events sent | stored | refused (4xx) | lost |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map(
      (r) =>
        `| ${r.target} | ${r.envelopes} | ${r.healthP50} | ${r.healthP99} | ${r.healthMax} | ${r.healthFailures} | ${r.loopMaxMs} | ${r.sent} | ${r.stored} | ${r.refused} | ${r.lost} |`,
    ),
    "",
  ].join("\n"),
);
const broken = rows.filter((r) => r.lost !== 0 || r.healthFailures !== 0);
if (broken.length > 0) {
  console.error(`bench:stall: events lost or health requests failed on ${broken.map((r) => r.target).join(", ")}`);
  process.exit(1);
}
if (args.smoke) console.log("bench:stall smoke: ok (every event stored or refused with a 4xx)");
process.exit(0);
