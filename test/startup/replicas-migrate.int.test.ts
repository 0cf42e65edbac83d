/**
 * Issue 38: replicas started at the same moment (a rollout, an autoscaler) on an empty PostgreSQL
 * database migrate once. Before the migration lock, one of two processes crashed in the migrations
 * (`Failed query: CREATE TABLE "accounts"`) in three tries of four. And a replica older than the
 * database's schema refuses to start, saying so, instead of running on tables it does not know.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { latestKnownMigration } from "../../src/server/db/migrations";
import { emptyDatabases } from "../helpers/empty-databases";
import { startAppProcess, type AppProcess } from "../helpers/app-process";
import { TEST_DATABASE_URL } from "../helpers/test-database";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ROUNDS = 4;
const databases = emptyDatabases();

async function stop(apps: AppProcess[]) {
  for (const app of apps) {
    app.child.kill("SIGTERM");
    await app.exited;
  }
}

/** Runs main.ts to its exit; answers the exit code and everything it wrote. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "src/server/main.ts")], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: "test", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "warn", CLIENT_MODE: "none", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  // A build without the check would start and serve: stop it rather than wait out the test.
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

afterAll(() => databases.dropAll());

describe.runIf(TEST_DATABASE_URL)("replicas starting together on one PostgreSQL", () => {
  it(`both become healthy on an empty database and every migration is applied once (${ROUNDS} rounds)`, async () => {
    const known = latestKnownMigration();
    for (let round = 0; round < ROUNDS; round++) {
      const url = await databases.create();
      const starts = await Promise.allSettled([startAppProcess({ DATABASE_URL: url }), startAppProcess({ DATABASE_URL: url })]);
      const apps = starts.flatMap((start) => (start.status === "fulfilled" ? [start.value] : []));
      await stop(apps);
      const failures = starts.flatMap((start) => (start.status === "rejected" ? [String(start.reason)] : []));
      expect(failures, `round ${round}`).toEqual([]);
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      const rows = await sql<{ hash: string }[]>`select hash from drizzle.__drizzle_migrations`;
      await sql.end();
      expect(rows).toHaveLength(known.idx + 1);
      expect(new Set(rows.map((row) => row.hash)).size).toBe(known.idx + 1);
    }
  }, 300_000);

  it("a replica that finds a newer schema than it knows refuses to start, naming both versions", async () => {
    const url = await databases.create();
    await stop([await startAppProcess({ DATABASE_URL: url })]);
    const known = latestKnownMigration();
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    // What the next release's migration leaves behind.
    await sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-build', ${known.when + 60_000})`;
    await sql.end();
    const { code, output } = await runToExit({ DATABASE_URL: url });
    expect(code).toBe(1);
    const number = String(known.idx).padStart(4, "0");
    const next = String(known.idx + 1).padStart(4, "0");
    expect(output).toContain(
      `The database schema is newer than this Faultline (database has migration ${next}, this build knows up to ${number} ${known.tag}): upgrade this replica or roll the database back.`,
    );
    // A message, not a crash: no stack trace.
    expect(output).not.toMatch(/\n\s+at /);
  }, 120_000);
});
