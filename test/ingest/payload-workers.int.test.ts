import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { occurrences } from "../../src/server/db/schema/index";
import { envelopeOf, loadPayload, sendPayload } from "../helpers/sdk-payloads";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

/**
 * The app's ingest with payload workers (INGEST_WORKERS; ingest/prepare/payload-workers.ts): what a
 * worker thread prepares is what is stored, for a key in the query and for a key only the envelope
 * header carries (parsed on the main thread, its project being unknown until then).
 */
interface Project {
  number: number;
  apiKey: string;
  dsn: string;
}

async function serverWithProject(workers: string): Promise<{ server: TestServer; project: Project }> {
  const server = await startTestServer({ env: { INGEST_WORKERS: workers } });
  const { session } = await signUpVerified(server);
  await createOrganization(session);
  const project = (await session.mutation("project.create", { name: "Workers", platform: "OTHER" })).data as Project;
  return { server, project };
}

const keyOf = (project: Project) => ({ projectNumber: project.number, publicKey: project.apiKey });
const eventId = (n: number) => `${"c0ffee".padEnd(24, "0")}${String(n).padStart(8, "0")}`;
const envelope = (n: number, header: Record<string, unknown> = {}) => envelopeOf({ ...loadPayload("go-event-000.json"), event_id: eventId(n) }, header);

async function storedCount(server: TestServer, ids: string[]) {
  return (await server.database.db.select({ id: occurrences.id }).from(occurrences).where(inArray(occurrences.eventId, ids))).length;
}

describe("ingest with payload workers", () => {
  let server: TestServer;
  let project: Project;
  beforeAll(async () => {
    ({ server, project } = await serverWithProject("1"));
  }, 60_000);
  afterAll(() => server.close());

  it("stores what the worker prepared, keyed in the query or only in the envelope header", { timeout: 60_000 }, async () => {
    const workers = server.ingest.service.deps.payloads!;
    // The first body starts the worker and is prepared inline while it boots.
    expect((await sendPayload(server.url, keyOf(project), "envelope", envelope(0))).status).toBe(200);
    await workers.whenReady();
    expect(workers.readyWorkers).toBe(1);

    for (let n = 1; n <= 10; n++) expect((await sendPayload(server.url, keyOf(project), "envelope", envelope(n))).status).toBe(200);
    expect(workers.workerAnswers).toBe(10);
    const headerOnly = await fetch(new URL(`/api/${project.number}/envelope/`, server.url), {
      method: "POST",
      headers: { "content-type": "application/x-sentry-envelope" },
      body: envelope(11, { dsn: project.dsn }),
    });
    expect(headerOnly.status).toBe(200);
    expect(workers.workerAnswers).toBe(10);

    expect(
      await storedCount(
        server,
        Array.from({ length: 12 }, (_, n) => eventId(n)),
      ),
    ).toBe(12);
  });

  it("answers a bad body from the worker with the same 400 as inline", { timeout: 60_000 }, async () => {
    const response = await sendPayload(server.url, keyOf(project), "envelope", `{"event_id":"${eventId(99)}"}\n{"type":"event"}\n{not json\n`);
    expect(response.status).toBe(400);
    expect(await storedCount(server, [eventId(99)])).toBe(0);
  });
});

describe("ingest without payload workers (INGEST_WORKERS=0)", () => {
  it("prepares on the main thread and stores alike", { timeout: 60_000 }, async () => {
    const { server, project } = await serverWithProject("0");
    try {
      expect(server.ingest.service.deps.payloads).toBeUndefined();
      expect((await sendPayload(server.url, keyOf(project), "envelope", envelope(200))).status).toBe(200);
      expect(await storedCount(server, [eventId(200)])).toBe(1);
    } finally {
      await server.close();
    }
  });
});
