import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseHealthHourly, releaseHealthUsers, releases } from "../../src/server/db/schema/index";
import { countSentSessions, crashFreePercent, type SentSession } from "../helpers/sent-sessions";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const run = promisify(execFile);
const SERVER_PROGRAM = path.join(import.meta.dirname, "sentry-node-sessions-program.mjs");
const PROCESS_PROGRAM = path.join(import.meta.dirname, "sentry-node-process-program.mjs");

/** Runs the real @sentry/node server program; resolves to the requests it served, by kind. */
async function serve(dsn: string, release: string, ok: number, errored: number, crashed: number) {
  const { stdout } = await run(process.execPath, [SERVER_PROGRAM, dsn, release, String(ok), String(errored), String(crashed)], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { ok: number; errored: number; crashed: number };
}

/** Runs the real @sentry/node program once as `user`; resolves to the process session items it sent. */
async function runOnce(dsn: string, release: string, user: string, outcome: "ok" | "crash"): Promise<SentSession[]> {
  const args = [PROCESS_PROGRAM, dsn, release, user, outcome];
  let stdout: string;
  try {
    ({ stdout } = await run(process.execPath, args, { timeout: 60_000 }));
    expect(outcome).toBe("ok");
  } catch (error) {
    // An uncaught exception ends the process with code 1, after the SDK flushed the crashed session.
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (outcome !== "crash" || failed.code !== 1) throw error;
    expect(failed.stderr).toContain("stock below zero");
    stdout = failed.stdout ?? "";
  }
  return stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SentSession);
}

describe("a real @sentry/node program's sessions: request sessions of a server, process sessions of runs", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server.close());

  it("are counted per release, and the releases list and page answer the crash-free sessions and users of what was sent", { timeout: 180_000 }, async () => {
    const { session } = await signUpVerified(server);
    const organization = await createOrganization(session);
    const project = (await session.mutation("project.create", { name: "api", platform: "NODE_JS" })).data as { id: string; dsn: string };

    // Request sessions (server mode): every request a session, crashed for an unhandled error, errored for a handled one.
    const healthy = await serve(project.dsn, "api@1.0.0", 12, 0, 0);
    const failing = await serve(project.dsn, "api@2.0.0", 6, 2, 3);
    expect(healthy).toEqual({ ok: 12, errored: 0, crashed: 0 });

    const totals = async (release: string) => {
      const rows = await server.database.db
        .select()
        .from(releaseHealthHourly)
        .where(and(eq(releaseHealthHourly.projectId, project.id), eq(releaseHealthHourly.release, release)));
      expect(rows.every((row) => row.environment === "production")).toBe(true);
      return rows.reduce(
        (sum, row) => ({
          sessions: sum.sessions + row.sessions,
          errored: sum.errored + row.errored,
          crashed: sum.crashed + row.crashed,
          abnormal: sum.abnormal + row.abnormal,
        }),
        { sessions: 0, errored: 0, crashed: 0, abnormal: 0 },
      );
    };
    expect(await totals("api@1.0.0")).toEqual({ sessions: healthy.ok, errored: 0, crashed: 0, abnormal: 0 });
    expect(await totals("api@2.0.0")).toEqual({
      sessions: failing.ok + failing.errored + failing.crashed,
      errored: failing.errored,
      crashed: failing.crashed,
      abnormal: 0,
    });
    // Request sessions are aggregates without a user (`did`), though the program sets one: no distinct users to count.
    expect(await server.database.db.select().from(releaseHealthUsers).where(eq(releaseHealthUsers.projectId, project.id))).toEqual([]);
    // Both releases exist now, created on first sight.
    const created = await server.database.db.select().from(releases).where(eq(releases.organizationId, organization.id));
    expect(created.map((row) => [row.version, row.firstSeenInEvent]).sort()).toEqual([
      ["api@1.0.0", true],
      ["api@2.0.0", true],
    ]);

    // Process sessions (application mode): one per run, its user the `did`; some runs of 2.0.0 end by an uncaught exception.
    const runs = {
      "api@1.0.0": [
        ["ana", "ok"],
        ["ben", "ok"],
        ["cleo", "ok"],
        ["ana", "ok"],
      ],
      "api@2.0.0": [
        ["ana", "ok"],
        ["dan", "crash"],
        ["eve", "ok"],
        ["ben", "crash"],
        ["eve", "ok"],
      ],
    } as const;
    const sent: Record<string, SentSession[]> = {};
    for (const [release, plan] of Object.entries(runs)) {
      sent[release] = [];
      for (const [user, outcome] of plan) sent[release].push(...(await runOnce(project.dsn, release, user, outcome)));
    }
    const processA = countSentSessions(sent["api@1.0.0"]);
    const processB = countSentSessions(sent["api@2.0.0"]);
    // The runs sent what the plan says: a session per run, crashed for the runs that crashed.
    expect(processA).toEqual({ sessions: 4, errored: 0, crashed: 0, abnormal: 0, users: 3, crashedUsers: 0 });
    expect(processB).toEqual({ sessions: 5, errored: 0, crashed: 2, abnormal: 0, users: 4, crashedUsers: 2 });

    // What the product must answer: request and process sessions summed; users only from the process sessions.
    const expected = {
      "api@1.0.0": {
        sessions: healthy.ok + processA.sessions,
        crashed: processA.crashed,
        crashFreeSessions: crashFreePercent(processA.crashed, healthy.ok + processA.sessions),
        crashFreeUsers: crashFreePercent(processA.crashedUsers, processA.users),
      },
      "api@2.0.0": {
        sessions: failing.ok + failing.errored + failing.crashed + processB.sessions,
        crashed: failing.crashed + processB.crashed,
        crashFreeSessions: crashFreePercent(failing.crashed + processB.crashed, failing.ok + failing.errored + failing.crashed + processB.sessions),
        crashFreeUsers: crashFreePercent(processB.crashedUsers, processB.users),
      },
    };
    expect(expected["api@1.0.0"]).toMatchObject({ crashFreeSessions: 100, crashFreeUsers: 100 });
    expect(expected["api@2.0.0"].crashFreeSessions).toBeLessThan(100);
    expect(expected["api@2.0.0"].crashFreeUsers).toBeLessThan(100);

    const base = `/api/v1/organizations/${organization.id}/projects/${project.id}/releases`;
    const list = await session.request(base);
    expect(list.status, list.text).toBe(200);
    const listed = Object.fromEntries(list.body.items.map((item: { version: string }) => [item.version, item])) as Record<string, any>;
    for (const [version, want] of Object.entries(expected)) {
      expect(listed[version].health, version).toMatchObject({
        sessions: want.sessions,
        crashFreeSessions: want.crashFreeSessions,
        crashFreeUsers: want.crashFreeUsers,
      });
      const detail = await session.request(`${base}/${encodeURIComponent(version)}`);
      expect(detail.status, detail.text).toBe(200);
      expect(detail.body.health).toEqual(listed[version].health);
      const days = detail.body.healthByDay as { sessions: number; crashed: number }[];
      expect(
        days.reduce((sum, day) => sum + day.sessions, 0),
        version,
      ).toBe(want.sessions);
      expect(
        days.reduce((sum, day) => sum + day.crashed, 0),
        version,
      ).toBe(want.crashed);
    }
  });
});
