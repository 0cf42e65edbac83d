/**
 * Battery: cross-tenant shared-batch failure, and out-of-range values that are valid JSON, over
 * HTTP. Two tenants ingest at the same time, so their events share batch statements; one of them
 * sends what PostgreSQL refuses as sent — a year-0 timestamp, a negative one, a lone UTF-16
 * surrogate in the message and in a tag, U+0000, and events for a project deleted on another
 * replica while its key is still cached here. The other tenant must lose nothing, nobody may get a
 * 5xx, and the poisoned events are stored sanitised (or refused with a 4xx) — never a 503 that can
 * never succeed.
 */
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, issueTagCounts, occurrences, projects } from "../../src/server/db/schema/index";
import { runSentryNode } from "../helpers/run-sentry-node";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

type Project = { id: string; number: number; apiKey: string };

const eventId = () => crypto.randomUUID().replaceAll("-", "");
/** JSON.stringify writes a lone surrogate as the `\udXXX` escape: exactly what a hostile SDK sends. */
const envelope = (event: Record<string, unknown>) => `${JSON.stringify({ event_id: event.event_id })}\n{"type":"event"}\n${JSON.stringify(event)}\n`;

describe("two tenants ingesting while one sends poison", () => {
  let server: TestServer;
  let victim: Project;
  let attacker: Project;
  let deleted: Project;

  const newTenant = async (name: string, projectNames: string[]) => {
    const { session } = await signUpVerified(server);
    await createOrganization(session, name);
    const created: Project[] = [];
    for (const projectName of projectNames) created.push((await session.mutation("project.create", { name: projectName, platform: "NODE_JS" })).data);
    return created;
  };
  const send = async (project: Project, event: Record<string, unknown>) => {
    const response = await fetch(`${server.url}/api/${project.number}/envelope/?sentry_key=${project.apiKey}`, { method: "POST", body: envelope(event) });
    await response.arrayBuffer();
    return response.status;
  };
  const stored = async (projectId: string) =>
    Number((await server.database.db.select({ n: count() }).from(occurrences).where(eq(occurrences.projectId, projectId)))[0].n);

  beforeAll(async () => {
    server = await startTestServer({ env: { LOG_LEVEL: "error" } });
    [victim] = await newTenant("Victim", ["shop"]);
    [attacker, deleted] = await newTenant("Attacker", ["poison", "deleted-elsewhere"]);
    // Its key is now cached here; then another replica deletes the project (straight in the database).
    expect(await send(deleted, { event_id: eventId(), message: "warm the key cache" })).toBe(200);
    await server.database.db.delete(projects).where(eq(projects.id, deleted.id));
  }, 60_000);
  afterAll(() => server.close());

  it("the other tenant loses nothing; the poison is stored sanitised or refused with a 4xx", async () => {
    const poison: [Project, Record<string, unknown>][] = [
      [attacker, { message: "year zero", timestamp: "0000-06-01T00:00:00Z" }],
      [attacker, { message: "before Christ", timestamp: -62_230_000_000 }],
      [attacker, { message: "lone \ud800 surrogate", tags: { "half\udc00": "pair\ud83d" } }],
      [attacker, { message: "nul \u0000 byte", tags: { nul: "\u0000" } }],
      [attacker, { exception: { values: [{ type: "Lone\udfffError", value: "in the title" }] } }],
      [deleted, { message: "project deleted on another replica" }],
    ];
    const victimStatuses: number[] = [];
    const attackerStatuses = new Map<string, number[]>();
    let next = 0;
    // Eight victim connections and the attacker's, interleaved, so batches hold both tenants.
    const victimWorker = async () => {
      while (next < 150) {
        next += 1;
        victimStatuses.push(await send(victim, { event_id: eventId(), message: "checkout failed", level: "error", tags: { tenant: "victim" } }));
      }
    };
    const attackerWorker = async () => {
      for (let round = 0; round < 10; round++) {
        await Promise.all(
          poison.map(async ([project, event], i) => {
            const status = await send(project, { event_id: eventId(), level: "error", ...event });
            attackerStatuses.set(String(i), [...(attackerStatuses.get(String(i)) ?? []), status]);
          }),
        );
      }
    };
    await Promise.all([...Array.from({ length: 8 }, victimWorker), attackerWorker()]);

    expect(victimStatuses).toHaveLength(150);
    expect(victimStatuses.every((status) => status === 200)).toBe(true);
    expect(await stored(victim.id)).toBe(150);
    // Sanitised and stored: timestamps clamped, surrogates and U+0000 replaced.
    for (const i of ["0", "1", "2", "3", "4"]) expect(attackerStatuses.get(i)).toEqual(Array(10).fill(200));
    expect(await stored(attacker.id)).toBe(50);
    // Deleted on another replica, key still cached here: refused, not a 503 to retry forever.
    expect(attackerStatuses.get("5")).toEqual(Array(10).fill(401));

    const rows = await server.database.db.select().from(occurrences).where(eq(occurrences.projectId, attacker.id));
    expect(rows.every((row) => row.timestamp.getUTCFullYear() >= 2000)).toBe(true);
    expect(rows.filter((row) => row.message === "lone \ufffd surrogate")).toHaveLength(10);
    expect(rows.filter((row) => row.message === "nul \ufffd byte")).toHaveLength(10);
    expect(rows.filter((row) => row.name === "Lone\ufffdError")).toHaveLength(10);

    // The shared tag-count flush is not poisoned either: every tenant's counts arrive.
    const tagCount = async (projectId: string, key: string) => {
      const tags = await server.database.db.select().from(issueTagCounts).where(eq(issueTagCounts.projectId, projectId));
      return tags.filter((tag) => tag.key === key).reduce((sum, tag) => sum + tag.count, 0);
    };
    await expect.poll(() => tagCount(victim.id, "tenant"), { timeout: 5_000 }).toBe(150);
    await expect.poll(() => tagCount(attacker.id, "half\ufffd"), { timeout: 5_000 }).toBe(10);
  }, 120_000);

  it("a real @sentry/node SDK of the other tenant gets every event stored while the poison keeps coming", async () => {
    const { session } = await signUpVerified(server);
    await createOrganization(session, "Real SDK");
    const sdkProject = (await session.mutation("project.create", { name: "sdk", platform: "NODE_JS" })).data as Project & { dsn: string };
    let sdkDone = false;
    const poisonStatuses: number[] = [];
    const poisonWorker = async () => {
      while (!sdkDone) {
        const status = await send(attacker, { event_id: eventId(), message: "lone \ud800", timestamp: "0000-01-01T00:00:00Z", tags: { t: "\udfff" } });
        poisonStatuses.push(status);
      }
    };
    const workers = Array.from({ length: 4 }, poisonWorker);
    const ids = await runSentryNode(sdkProject.dsn, 60, "plain").finally(() => (sdkDone = true));
    await Promise.all(workers);
    expect(ids).toHaveLength(60);
    const rows = await server.database.db.select({ eventId: occurrences.eventId }).from(occurrences).where(eq(occurrences.projectId, sdkProject.id));
    expect(rows.map((row) => row.eventId).sort()).toEqual([...ids].sort());
    expect(poisonStatuses.length).toBeGreaterThan(0);
    expect(poisonStatuses.every((status) => status === 200)).toBe(true);
  }, 120_000);

  it("stores a native exception and a native event holding U+0000 and lone surrogates, sanitised (201, not 503)", async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "x-api-key": attacker.apiKey, "content-type": "application/json" },
      });
    const exception = await post("/api/v1/exceptions", { environment: "PRODUCTION", name: "Nul\u0000Error", message: "half \ud800 pair" });
    expect(exception.status).toBe(201);
    const event = await post("/api/v1/events", { name: "signup\u0000", properties: { "plan\u0000": "pro\u0000", list: ["a\udc00"] } });
    expect(event.status).toBe(201);
    const [row] = await server.database.db.select().from(events).where(eq(events.projectId, attacker.id));
    expect(row.name).toBe("signup\ufffd");
    expect(row.properties).toEqual({ "plan\ufffd": "pro\ufffd", list: ["a\ufffd"] });
    const [occurrence] = await server.database.db.select().from(occurrences).where(eq(occurrences.name, "Nul\ufffdError"));
    expect(occurrence.message).toBe("half \ufffd pair");
  });
});
