import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../src/server/db/client";
import { executeRows } from "../../src/server/db/execute";
import { ensurePartitionsFor } from "../../src/server/retention/week-partitions";
import { PARTITIONED_TABLES } from "../../src/server/retention/partitioned-tables";
import { dayOf, weekStartOf } from "../../src/server/retention/utc-days";
import { seedProject } from "../helpers/seed";

const run = promisify(execFile);
const ROOT = path.join(import.meta.dirname, "../..");
const DAY_MS = 86_400_000;

/** `npm run maintenance` as an operator runs it: its own process on the embedded database's folder. */
function maintenance(dataDir: string, ...args: string[]) {
  return run(process.execPath, ["--import", "tsx", path.join(ROOT, "src/server/retention/maintenance-cli.ts"), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: "test", PGLITE_DATA_DIR: dataDir, RETENTION_DAYS: "30" },
    timeout: 120_000,
  });
}

async function withDatabase<T>(dataDir: string, use: (database: Database) => Promise<T>): Promise<T> {
  const database = createDatabase({ pgliteDataDir: dataDir });
  try {
    await database.migrate();
    return await use(database);
  } finally {
    await database.close();
  }
}

const receivedDays = (database: Database) =>
  executeRows<{ day: string; n: number }>(database.db, sql`select received_on::text as day, count(*)::int as n from occurrences group by 1 order by 1`);

describe("npm run maintenance", () => {
  let dataDir: string;
  const now = Date.now();
  // Old enough that its whole week is past a 30-day retention, whatever weekday today is.
  const old = new Date(now - 45 * DAY_MS);
  const recent = new Date(now - 5 * DAY_MS);

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "faultline-maintenance-"));
    await withDatabase(dataDir, async ({ db }) => {
      const project = await seedProject(db, "maintenance-command");
      const [issue] = await executeRows<{ id: string }>(
        db,
        sql`insert into issues (organization_id, project_id, fingerprint, grouping_version, title, culprit, level, platform, severity, first_seen, last_seen, event_count, user_count)
            values (${project.organizationId}, ${project.projectId}::uuid, 'cli', 2, 'Error: kept?', 'cli.js', 'error', 'node', 'MEDIUM', now(), now(), 6, 0) returning id::text`,
      );
      await ensurePartitionsFor(db, PARTITIONED_TABLES[0], [dayOf(old), dayOf(recent)]);
      for (const [at, count] of [
        [old, 4],
        [recent, 2],
      ] as const) {
        await db.execute(sql`
          insert into occurrences (organization_id, project_id, issue_id, event_id, timestamp, received_at, received_on, level, environment_bucket, data)
          select ${project.organizationId}, ${project.projectId}::uuid, ${issue.id}::uuid, md5(${at.toISOString()} || n), ${at.toISOString()}::timestamptz,
                 ${at.toISOString()}::timestamptz, ${dayOf(at)}::date, 'error', 'PRODUCTION', '{}'
          from generate_series(1, ${count}) as n`);
      }
    });
  }, 120_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("refuses an --as-of that is not a date, saying what it needs", async () => {
    const failed = await maintenance(dataDir, "--as-of", "next tuesday").catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain("--as-of needs an ISO date or time");
  });

  it("on a dry run says what would go with 30 days' retention, and changes nothing", async () => {
    const { stdout } = await maintenance(dataDir, "--dry-run");
    expect(stdout).toContain("(dry run: nothing was changed)");
    expect(stdout).toContain("1 week partition(s) past retention would be dropped");
    expect(stdout).toContain(`occurrences_p${weekStartOf(dayOf(old)).replaceAll("-", "")}: 4 row(s)`);
    await withDatabase(dataDir, async (database) => {
      expect(await receivedDays(database)).toEqual([
        { day: dayOf(old), n: 4 },
        { day: dayOf(recent), n: 2 },
      ]);
    });
  }, 120_000);

  it("drops the week past retention and keeps the rest; --as-of a later date takes the rest too", async () => {
    const { stdout } = await maintenance(dataDir, "--json");
    const summary = JSON.parse(stdout);
    expect(summary.retention.droppedPartitions).toMatchObject([{ week: weekStartOf(dayOf(old)), rows: 4 }]);
    await withDatabase(dataDir, async (database) => {
      expect(await receivedDays(database)).toEqual([{ day: dayOf(recent), n: 2 }]);
    });
    const later = new Date(now + 30 * DAY_MS).toISOString();
    const { stdout: report } = await maintenance(dataDir, "--as-of", later);
    expect(report).toContain(`maintenance as of ${later}`);
    await withDatabase(dataDir, async (database) => {
      expect(await receivedDays(database)).toEqual([]);
      const [runs] = await executeRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from maintenance_runs where finished_at is not null and error is null`,
      );
      expect(runs.n).toBe(2);
    });
  }, 120_000);
});
