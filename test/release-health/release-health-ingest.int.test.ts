import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseHealthHourly, releaseHealthSessions, releaseHealthUsers, releaseProjects, releases } from "../../src/server/db/schema/index";
import { loadPayload, sendPayload } from "../helpers/sdk-payloads";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

/**
 * Release health at ingest (issue 34) through the real endpoint: `session` and `sessions` items as
 * the SDKs send them, counted exactly however their updates are split across requests and batches.
 */
interface Project {
  id: string;
  number: number;
  apiKey: string;
}

const STARTED = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 60_000).toISOString();
const HOUR = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);

function sessionItem(sid: string, fields: Record<string, unknown>, attrs: Record<string, unknown> = { release: "web@1.0.0", environment: "production" }) {
  return { sid, init: false, started: STARTED, status: "ok", errors: 0, attrs, ...fields };
}

/** An envelope of session items (and maybe an event), as @sentry/browser and sentry-python send them. */
function envelope(items: { type: string; payload: unknown }[]) {
  return (
    [
      JSON.stringify({ sent_at: new Date().toISOString() }),
      ...items.flatMap((item) => [JSON.stringify({ type: item.type }), JSON.stringify(item.payload)]),
    ].join("\n") + "\n"
  );
}
const sessions = (...payloads: unknown[]) => envelope(payloads.map((payload) => ({ type: "session", payload })));

describe("release health at ingest", () => {
  let server: TestServer;
  let project: Project;
  let organizationId: string;
  beforeAll(async () => {
    server = await startTestServer();
    const { session } = await signUpVerified(server);
    organizationId = (await createOrganization(session)).id;
    project = (await session.mutation("project.create", { name: "Health", platform: "REACT" })).data as Project;
  }, 60_000);
  afterAll(() => server.close());

  const send = async (body: string) => {
    const response = await sendPayload(server.url, { projectNumber: project.number, publicKey: project.apiKey }, "envelope", body);
    expect(response.status).toBe(200);
    return response.json();
  };
  const hourly = async (release: string, environment = "production") =>
    (
      await server.database.db
        .select()
        .from(releaseHealthHourly)
        .where(and(eq(releaseHealthHourly.projectId, project.id), eq(releaseHealthHourly.release, release), eq(releaseHealthHourly.environment, environment)))
    ).map(({ sessions, errored, crashed, abnormal, hour }) => ({ sessions, errored, crashed, abnormal, hour: hour.toISOString() }));

  it("counts a session started once, and moves it from errored to crashed when a later update crashes", async () => {
    const release = "web@1.0.0";
    expect(await send(sessions(sessionItem("s1", { init: true, did: "u1" }, { release, environment: "production" })))).toEqual({});
    await send(sessions(sessionItem("s1", { errors: 1, did: "u1" }, { release, environment: "production" })));
    expect(await hourly(release)).toEqual([{ sessions: 1, errored: 1, crashed: 0, abnormal: 0, hour: HOUR.toISOString() }]);
    await send(sessions(sessionItem("s1", { status: "crashed", errors: 2, did: "u1" }, { release, environment: "production" })));
    // The same terminal update again (an SDK's retry) and a late errored one count nothing.
    await send(sessions(sessionItem("s1", { status: "crashed", errors: 2, did: "u1" }, { release, environment: "production" })));
    await send(sessions(sessionItem("s1", { errors: 3, did: "u1" }, { release, environment: "production" })));
    expect(await hourly(release)).toEqual([{ sessions: 1, errored: 0, crashed: 1, abnormal: 0, hour: HOUR.toISOString() }]);
    const users = await server.database.db.select().from(releaseHealthUsers).where(eq(releaseHealthUsers.projectId, project.id));
    expect(users.map(({ release, environment, userKey, crashed, day }) => ({ release, environment, userKey, crashed, day }))).toEqual([
      { release, environment: "production", userKey: "u1", crashed: true, day: STARTED.slice(0, 10) },
    ]);
    // Only sessions that errored are remembered, one row each.
    const remembered = await server.database.db.select().from(releaseHealthSessions).where(eq(releaseHealthSessions.projectId, project.id));
    expect(remembered.map((row) => [row.sessionId, row.outcome])).toEqual([["s1", 3]]);
  });

  it("counts updates of one session in one envelope (one batch) as the worst of them", async () => {
    const release = "web@1.0.1";
    await send(
      sessions(
        sessionItem("a", { init: true, errors: 1 }, { release }),
        sessionItem("a", { status: "abnormal" }, { release }),
        sessionItem("b", { init: true }, { release }),
        sessionItem("b", { status: "exited" }, { release }),
        sessionItem("c", { init: true, status: "errored" }, { release }),
        sessionItem("c", { status: "exited", errors: 1 }, { release }),
      ),
    );
    // No environment sent: stored as "".
    expect(await hourly(release, "")).toEqual([{ sessions: 3, errored: 1, crashed: 0, abnormal: 1, hour: HOUR.toISOString() }]);
  });

  it("counts the same whatever order a session's updates arrive in (a crash before the errored update it followed)", async () => {
    const release = "web@1.0.2";
    const attrs = { release, environment: "production" };
    await send(sessions(sessionItem("o1", { status: "crashed", errors: 1 }, attrs)));
    await send(sessions(sessionItem("o1", { init: true, errors: 1 }, attrs)));
    await send(sessions(sessionItem("o2", { status: "abnormal" }, attrs)));
    await send(sessions(sessionItem("o2", { init: true, errors: 1 }, attrs)));
    await send(sessions(sessionItem("o2", { status: "crashed" }, attrs)));
    expect(await hourly(release)).toEqual([{ sessions: 2, errored: 0, crashed: 2, abnormal: 0, hour: HOUR.toISOString() }]);
  });

  it("adds aggregates as sent (sessions = exited + errored + abnormal + crashed)", async () => {
    const release = "api@2.0.0";
    const aggregates = {
      aggregates: [
        { started: STARTED, exited: 7, errored: 2, crashed: 1 },
        { started: STARTED, did: "svc", exited: 1, abnormal: 1 },
      ],
      attrs: { release, environment: "production" },
    };
    await send(envelope([{ type: "sessions", payload: aggregates }]));
    await send(envelope([{ type: "sessions", payload: aggregates }]));
    expect(await hourly(release)).toEqual([{ sessions: 24, errored: 4, crashed: 2, abnormal: 2, hour: HOUR.toISOString() }]);
  });

  it("answers 200 to sessions without a release and stores nothing of them", async () => {
    const counted = async () => {
      const rows = await server.database.db.select().from(releaseHealthHourly).where(eq(releaseHealthHourly.projectId, project.id));
      return { rows: rows.length, sessions: rows.reduce((sum, row) => sum + row.sessions, 0), crashed: rows.reduce((sum, row) => sum + row.crashed, 0) };
    };
    const before = await counted();
    expect(await send(sessions(sessionItem("n1", { init: true, status: "crashed" }, { environment: "production" })))).toEqual({});
    await send(envelope([{ type: "sessions", payload: { aggregates: [{ started: STARTED, crashed: 3 }], attrs: {} } }]));
    await send(sessions(sessionItem("n2", { init: true, status: "crashed" }, { release: "", environment: "production" })));
    expect(await counted()).toEqual(before);
    const rows = await server.database.db.select().from(releaseHealthHourly).where(eq(releaseHealthHourly.projectId, project.id));
    expect(rows.every((row) => row.release !== "")).toBe(true);
  });

  it("counts exactly under concurrent requests splitting sessions' updates", async () => {
    const release = "web@3.0.0";
    const attrs = { release, environment: "production" };
    const ids = Array.from({ length: 60 }, (_, i) => `c${i}`);
    await Promise.all(ids.map((sid) => send(sessions(sessionItem(sid, { init: true }, attrs)))));
    // Every third session errors, every fifth crashes (some of them after erroring), each update sent twice at once.
    const updates = ids.flatMap((sid, i) => [
      ...(i % 3 === 0 ? [sessionItem(sid, { errors: 1 }, attrs)] : []),
      ...(i % 5 === 0 ? [sessionItem(sid, { status: "crashed", errors: 1 }, attrs)] : []),
    ]);
    await Promise.all([...updates, ...updates].map((update) => send(sessions(update))));
    const crashed = ids.filter((_, i) => i % 5 === 0).length;
    const errored = ids.filter((_, i) => i % 3 === 0 && i % 5 !== 0).length;
    expect(await hourly(release)).toEqual([{ sessions: 60, errored, crashed, abnormal: 0, hour: HOUR.toISOString() }]);
  });

  it("creates the releases events and sessions name on first sight, linked to the project, and keeps a tool's release as it was", async () => {
    // As `sentry-cli releases new tool@1` made it, without projects.
    await server.database.db.insert(releases).values({ organizationId, version: "tool@1", url: "https://example.test/r" });
    const event = { ...loadPayload("go-event-000.json"), event_id: "ab".repeat(16), release: "backend@9.9.9" };
    await send(
      envelope([
        { type: "event", payload: event },
        { type: "session", payload: sessionItem("f1", { init: true }, { release: "web@1.0.0" }) },
        { type: "session", payload: sessionItem("f2", { init: true }, { release: "tool@1" }) },
      ]),
    );
    const rows = await server.database.db.select().from(releases).where(eq(releases.organizationId, organizationId));
    const byVersion = new Map(rows.map((row) => [row.version, row]));
    for (const version of ["backend@9.9.9", "web@1.0.0", "web@1.0.1", "api@2.0.0", "web@3.0.0"]) {
      expect(byVersion.get(version)?.firstSeenInEvent, version).toBe(true);
    }
    expect(byVersion.get("tool@1")).toMatchObject({ firstSeenInEvent: false, url: "https://example.test/r" });
    const links = await server.database.db.select().from(releaseProjects).where(eq(releaseProjects.projectId, project.id));
    expect(links.map((link) => link.releaseId).sort()).toEqual(rows.map((row) => row.id).sort());
  });
});
