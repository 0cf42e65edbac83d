/**
 * Issue 38: a read replica. A real streaming-replication standby of the test's PostgreSQL
 * (pg_basebackup -R, started on another port) behind DATABASE_READ_URL: lists and details are
 * read there (the standby's own statistics count them), a writer's read right after its write
 * sees it (the primary), and a standby taken down sends reads to the primary without one failed
 * request, with a log line and the metrics saying so.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WROTE_RECENTLY_COOKIE } from "../../src/server/http/read-after-write";
import { HttpSession } from "../helpers/http-session";
import { replicationAllowed, startStandby, type Standby } from "../helpers/standby-postgres";
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { sendEvents, triageTenant, utcDay, type TriageProject } from "../helpers/triage-seed";

/** Large enough that a paused replay (below) stays within it for the whole test. */
const MAX_LAG_SECONDS = 60;

async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A metric's value from /metrics (first sample whose line starts with `series`), or undefined. */
function metric(text: string, series: string): number | undefined {
  const line = text.split("\n").find((row) => row.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.runIf(replicationAllowed(TEST_DATABASE_URL))("read replica (DATABASE_READ_URL)", () => {
  let database: TestDatabase | undefined;
  let standby: Standby | undefined;
  let server: TestServer | undefined;
  /** A connection to the test's database on the standby, for its statistics and replay control. */
  let onStandby: postgres.Sql | undefined;
  let primary: postgres.Sql | undefined;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;
  let project: TriageProject;
  let issueId: string;
  let exceptionId: string;

  /** The signed-in user as a browser that wrote nothing lately (its short-lived cookie expired). */
  const readerOf = (session: HttpSession) => {
    const reader = new HttpSession(session.baseUrl);
    for (const [name, value] of session.cookies) if (name !== WROTE_RECENTLY_COOKIE) reader.cookies.set(name, value);
    return reader;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const name = new URL(database.url!).pathname.slice(1);
    standby = await startStandby(TEST_DATABASE_URL!);
    onStandby = postgres(standby.urlFor(name), { max: 1, onnotice: () => {} });
    primary = postgres(database.url!, { max: 1, onnotice: () => {} });
    server = await startTestServer({ database, env: { DATABASE_READ_URL: standby.urlFor(name), READ_REPLICA_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS) } });
    tenant = await triageTenant(server, "Replica");
    project = tenant.project;
    await sendEvents(server, project, [
      { type: "TypeError", value: "a is undefined", fn: "checkout" },
      { type: "TypeError", value: "a is undefined", fn: "checkout" },
    ]);
    const [row] = await primary<{ id: string; issue_id: string }[]>`select id, issue_id from occurrences where project_id = ${project.id} limit 1`;
    exceptionId = row.id;
    issueId = row.issue_id;
    // The standby has the events, and the app reads it.
    await waitFor("the events on the standby", async () => (await onStandby!`select count(*)::int as n from occurrences`)[0].n === 2);
    await waitFor("the replica in use", () => server!.services.readReplica?.state().inUse === true);
  }, 180_000);

  afterAll(async () => {
    try {
      await onStandby?.end({ timeout: 1 }).catch(() => {});
      await primary?.end({ timeout: 1 });
      await server?.close();
      await database?.destroy();
    } finally {
      standby?.destroy();
    }
  });

  /** Scans of the issues table and of the occurrences' partitions on the standby, as its statistics count them. */
  async function standbyScans() {
    await onStandby!`select pg_stat_clear_snapshot()`;
    const [row] = await onStandby!<{ issues: number; occurrences: number }[]>`select
      coalesce(sum(seq_scan + coalesce(idx_scan, 0)) filter (where relname = 'issues'), 0)::float8 as issues,
      coalesce(sum(seq_scan + coalesce(idx_scan, 0)) filter (where relname like 'occurrences%'), 0)::float8 as occurrences
      from pg_stat_user_tables`;
    return row;
  }

  it("serves the screens' lists and details from the standby", async () => {
    const reader = readerOf(tenant.session);
    const before = await standbyScans();
    const today = utcDay(new Date());
    const reads = [
      await reader.query("issue.list", { projectId: project.id }),
      await reader.query("issue.get", { projectId: project.id, issueId }),
      await reader.query("exception.list", { projectId: project.id, issueId }),
      await reader.query("exception.get", { projectId: project.id, exceptionId }),
      await reader.query("stats.daily", { projectId: project.id, from: today, to: today }),
      await reader.query("storage.summary"),
      await reader.query("release.list", { projectId: project.id }),
    ];
    for (const read of reads) expect(read.error).toBeUndefined();
    expect(reads[0].data.items).toHaveLength(1);
    expect(reads[2].data.items).toHaveLength(2);
    // A backend reports its statistics when idle, within about ten seconds.
    await waitFor(
      "the standby's statistics to count the reads",
      async () => {
        const after = await standbyScans();
        return after.issues > before.issues && after.occurrences > before.occurrences;
      },
      25_000,
    );
  }, 40_000);

  it("answers a writer's own read from the primary, while others still read the standby", async () => {
    // Replay current, then paused: the standby keeps serving (within the lag bound), but stale.
    await primary!`select txid_current()`;
    const [{ lsn }] = await primary!<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
    await waitFor("replay up to now", async () => (await onStandby!`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as done`)[0].done);
    await onStandby!`select pg_wal_replay_pause()`;
    try {
      await server!.services.readReplica!.poll();
      expect(server!.services.readReplica!.state().inUse).toBe(true);
      const writer = tenant.session;
      const changed = await writer.mutation("issue.setStatus", { projectId: project.id, issueId, status: "RESOLVED" });
      expect(changed.error).toBeUndefined();
      expect(writer.cookies.has(WROTE_RECENTLY_COOKIE)).toBe(true);
      const own = await writer.query("issue.get", { projectId: project.id, issueId });
      expect(own.data.status).toBe("RESOLVED");
      const ownList = await writer.query("issue.list", { projectId: project.id });
      expect(ownList.data.items[0].status).toBe("RESOLVED");
      // The same user once the short-lived cookie is gone: the standby, where replay has not reached the change.
      const later = await readerOf(writer).query("issue.get", { projectId: project.id, issueId });
      expect(later.data.status).toBe("OPEN");

      // API tokens: this process remembers the one that wrote; another still reads the standby.
      const token = async (name: string) => {
        const created = await writer.mutation("apiToken.create", { name, scopes: ["event:read", "event:write"] });
        expect(created.error).toBeUndefined();
        return { authorization: `Bearer ${created.data.secret}` };
      };
      const [tokenWriter, tokenReader] = [await token("writer"), await token("reader")];
      const api = new HttpSession(server!.url, null);
      const issueUrl = `/api/v1/organizations/${tenant.org.id}/projects/${project.id}/issues/${issueId}`;
      const ignored = await api.request(`${issueUrl}/status`, { method: "PUT", body: { status: "IGNORED" }, headers: tokenWriter });
      expect(ignored.status, ignored.text).toBe(200);
      expect((await api.request(issueUrl, { headers: tokenWriter })).body.status).toBe("IGNORED");
      expect((await api.request(issueUrl, { headers: tokenReader })).body.status).toBe("OPEN");
    } finally {
      await onStandby!`select pg_wal_replay_resume()`;
    }
    await waitFor(
      "the changes on the standby",
      async () => (await readerOf(tenant.session).query("issue.get", { projectId: project.id, issueId })).data.status === "IGNORED",
    );
  }, 40_000);

  it("sends reads to the primary when the standby stops, with no failed request, and says so", async () => {
    const metricsBefore = await (await fetch(`${server!.url}/metrics`)).text();
    expect(metric(metricsBefore, "faultline_replica_in_use")).toBe(1);
    expect(metric(metricsBefore, "faultline_replica_up")).toBe(1);
    expect(metric(metricsBefore, "faultline_replica_lag_seconds")).toBeLessThanOrEqual(MAX_LAG_SECONDS);
    expect(metric(metricsBefore, 'faultline_db_pool_connections{pool="replica",state="max"}')).toBe(10);
    expect(metric(metricsBefore, 'faultline_db_pool_connections{pool="replica",state="open"}')).toBeGreaterThan(0);

    const reader = readerOf(tenant.session);
    const statuses: number[] = [];
    let loading = true;
    const load = async () => {
      while (loading) {
        const [list, detail] = await Promise.all([
          reader.query("issue.list", { projectId: project.id }),
          reader.query("exception.get", { projectId: project.id, exceptionId }),
        ]);
        statuses.push(list.status, detail.status);
      }
    };
    const logsBefore = server!.logs.length;
    const loops = [load(), load(), load()];
    await new Promise((resolve) => setTimeout(resolve, 300));
    await onStandby!.end({ timeout: 1 }).catch(() => {});
    onStandby = undefined;
    await standby!.stop();
    // Past a poll or two: the replica is found down and every read goes to the primary.
    await waitFor("reads on the primary", () => server!.services.readReplica!.state().inUse === false, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    loading = false;
    await Promise.all(loops);

    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const switched = server!.logs.slice(logsBefore).filter((line) => line.msg === "reads on the primary: the read replica is not usable");
    expect(switched).toHaveLength(1);
    const metricsAfter = await (await fetch(`${server!.url}/metrics`)).text();
    expect(metric(metricsAfter, "faultline_replica_in_use")).toBe(0);
    expect(metric(metricsAfter, "faultline_replica_up")).toBe(0);
    expect(metric(metricsAfter, "faultline_replica_lag_seconds")).toBeUndefined();
    expect(metric(metricsAfter, 'faultline_db_pool_connections{pool="replica",state="open"}')).toBeUndefined();
    // And the reads still answer, from the primary.
    const list = await reader.query("issue.list", { projectId: project.id });
    expect(list.data.items).toHaveLength(1);
  }, 60_000);
});
