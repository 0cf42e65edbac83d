import { monitorEventLoopDelay } from "node:perf_hooks";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { occurrences } from "../../src/server/db/schema/index";
import { heavyEnvelope } from "../helpers/heavy-envelope";
import { seedProject } from "../helpers/seed";
import { startTestServer, type TestServer } from "../helpers/test-server";

const post = (url: string, gzipped: Buffer) =>
  fetch(url, { method: "POST", body: new Uint8Array(gzipped), headers: { "content-type": "application/x-sentry-envelope", "content-encoding": "gzip" } });

async function storedOf(server: TestServer, eventIds: string[]) {
  const rows = await server.database.db.select({ eventId: occurrences.eventId }).from(occurrences).where(inArray(occurrences.eventId, eventIds));
  return rows.length;
}

/**
 * Issue 31, finding 3: a 160 KB gzip envelope of 35 large events (19 MB decompressed, inside every
 * limit) held the event loop 1.0–1.4 s, so every other tenant's requests waited. Targets are in
 * bench:stall (bench/README.md); this bound is generous because the machine is shared (seven engineers on two cores), and the structure is
 * asserted in prepare/ready-payload.test.ts. Before the fix the loop was held 2.5–10 s here.
 */
describe("large envelopes from one key (issue 31)", () => {
  let server: TestServer;
  let url: string;
  beforeAll(async () => {
    server = await startTestServer({ env: { LOG_LEVEL: "warn" } });
    const project = await seedProject(server.database.db, "heavy");
    url = `${server.url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`;
  });
  afterAll(() => server.close());

  it("stores every event of two 19 MB envelopes without holding the event loop for more than 500 ms at a time", async () => {
    const envelopes = [heavyEnvelope({ tag: "first" }), heavyEnvelope({ tag: "second" })];
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const statuses = await Promise.all(envelopes.map(async ({ gzipped }) => (await post(url, gzipped)).status));
    delay.disable();
    expect(statuses).toEqual([200, 200]);
    const eventIds = envelopes.flatMap((envelope) => envelope.eventIds);
    expect(await storedOf(server, eventIds)).toBe(eventIds.length);
    expect(delay.max / 1e6).toBeLessThan(500);
  }, 120_000);
});

describe("the per-key byte budget (INGEST_KEY_BYTE_RATE_LIMIT)", () => {
  let server: TestServer;
  let url: string;
  beforeAll(async () => {
    server = await startTestServer({
      env: { LOG_LEVEL: "warn", INGEST_KEY_BYTE_RATE_LIMIT: String(3 * 1024 * 1024), INGEST_RATE_LIMIT_WINDOW_SECONDS: "3600" },
    });
    const project = await seedProject(server.database.db, "budget");
    url = `${server.url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`;
  });
  afterAll(() => server.close());

  it("answers 429 for the key's next large body once the budget is spent, stores none of its events, and still takes small bodies", async () => {
    const sent = [1, 2, 3, 4].map((n) => heavyEnvelope({ events: 2, tag: `budget${n}` }));
    const first = await post(url, sent[0].gzipped);
    const second = await post(url, sent[1].gzipped);
    const third = await post(url, sent[2].gzipped);
    expect([first.status, second.status, third.status]).toEqual([200, 200, 429]);
    expect(third.headers.get("x-sentry-rate-limits")).toMatch(/^\d+:error;default;transaction;attachment;session:key$/);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await storedOf(server, [...sent[0].eventIds, ...sent[1].eventIds])).toBe(4);
    // Once the budget is known spent, a large body is refused before it is read.
    const fourth = await post(url, sent[3].gzipped);
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get("x-sentry-rate-limits")).toMatch(/:key$/);
    expect(await storedOf(server, [...sent[2].eventIds, ...sent[3].eventIds])).toBe(0);
    // Bodies under 64 KiB are not counted: the usual request costs no counter round trip.
    const small = heavyEnvelope({ events: 1, eventBytes: 4000, tag: "small" });
    expect((await post(url, small.gzipped)).status).toBe(200);
  }, 60_000);
});
