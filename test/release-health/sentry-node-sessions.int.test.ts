import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseHealthHourly, releaseHealthUsers, releases } from "../../src/server/db/schema/index";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const run = promisify(execFile);
const PROGRAM = path.join(import.meta.dirname, "sentry-node-sessions-program.mjs");

/** Runs the real @sentry/node server program; resolves to the requests it served, by kind. */
async function serve(dsn: string, release: string, ok: number, errored: number, crashed: number) {
  const { stdout } = await run(process.execPath, [PROGRAM, dsn, release, String(ok), String(errored), String(crashed)], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { ok: number; errored: number; crashed: number };
}

describe("a real @sentry/node server's request sessions", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server.close());

  it("are counted per release: every request a session, crashed for an unhandled error, errored for a handled one", { timeout: 120_000 }, async () => {
    const { session } = await signUpVerified(server);
    const organization = await createOrganization(session);
    const project = (await session.mutation("project.create", { name: "api", platform: "NODE_JS" })).data as { id: string; dsn: string };

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
  });
});
