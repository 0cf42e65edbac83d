import { gzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, ingestOutcomes, occurrences } from "../../src/server/db/schema/index";
import { seedProject } from "../helpers/seed";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

type Project = { id: string; number: number; apiKey: string; dsn: string };

const eventId = () => crypto.randomUUID().replaceAll("-", "");
const envelope = (id: string, dsn?: string) =>
  `${JSON.stringify({ event_id: id, ...(dsn ? { dsn } : {}) })}\n{"type":"event"}\n${JSON.stringify({ event_id: id, level: "error", exception: { values: [{ type: "Error", value: "boom" }] } })}\n`;

describe("ingest authentication and protocol edges (battery B)", () => {
  let server: TestServer;
  let a: Project;
  let b: Project;

  beforeAll(async () => {
    server = await startTestServer();
    const { session } = await signUpVerified(server);
    await createOrganization(session);
    a = (await session.mutation("project.create", { name: "A", platform: "NODE_JS" })).data;
    b = (await session.mutation("project.create", { name: "B", platform: "NODE_JS" })).data;
  });
  afterAll(() => server.close());

  const post = (path: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(new URL(path, server.url), { method: "POST", body: typeof body === "string" ? body : new Uint8Array(body), headers });

  it("accepts every auth form: query, X-Sentry-Auth, Authorization and the envelope DSN", async () => {
    const forms: { path: string; headers: Record<string, string> }[] = [
      { path: `/api/${a.number}/envelope/?sentry_key=${a.apiKey}&sentry_version=7`, headers: {} },
      { path: `/api/${a.number}/envelope/`, headers: { "x-sentry-auth": `Sentry sentry_key=${a.apiKey}, sentry_version=7, sentry_client=test/1.0` } },
      { path: `/api/${a.number}/envelope`, headers: { authorization: `Sentry sentry_key=${a.apiKey}, sentry_version=7` } },
    ];
    for (const form of forms) {
      const id = eventId();
      const response = await post(form.path, envelope(id), form.headers);
      expect(response.status, form.path).toBe(200);
      expect(await response.json()).toEqual({ id });
    }
    const id = eventId();
    const viaDsn = await post(`/api/${a.number}/envelope/`, envelope(id, a.dsn));
    expect(viaDsn.status).toBe(200);
  });

  it("refuses missing, unknown, disagreeing and cross-project keys", async () => {
    expect((await post(`/api/${a.number}/envelope/`, envelope(eventId()))).status).toBe(403);
    expect((await post(`/api/${a.number}/envelope/?sentry_key=ffffffffffffffffffffffffffffffff`, envelope(eventId()))).status).toBe(401);
    const disagreeing = await post(`/api/${a.number}/envelope/?sentry_key=${a.apiKey}`, envelope(eventId()), {
      "x-sentry-auth": `Sentry sentry_key=${b.apiKey}`,
    });
    expect(disagreeing.status).toBe(401);
    const crossProject = await post(`/api/${b.number}/envelope/?sentry_key=${a.apiKey}`, envelope(eventId()));
    expect(crossProject.status).toBe(401);
    const rows = await server.database.db.select().from(occurrences).where(eq(occurrences.projectId, b.id));
    expect(rows).toHaveLength(0);
  });

  it("looks an unknown key up at most once per minute (negative cache)", async () => {
    const before = server.ingest.service.deps.keys.queries;
    const unknown = "0123456789abcdef0123456789abcdef";
    const answers = await Promise.all(Array.from({ length: 25 }, () => post(`/api/${a.number}/envelope/?sentry_key=${unknown}`, envelope(eventId()))));
    expect(answers.every((response) => response.status === 401)).toBe(true);
    expect(server.ingest.service.deps.keys.queries - before).toBe(1);
  });

  it("answers CORS preflights and exposes the rate-limit headers", async () => {
    const preflight = await fetch(new URL(`/api/${a.number}/envelope/`, server.url), {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("x-sentry-auth");
    expect(preflight.headers.get("access-control-expose-headers")).toContain("x-sentry-rate-limits");
    const native = await fetch(new URL("/api/v1/exceptions", server.url), { method: "OPTIONS" });
    expect(native.headers.get("access-control-allow-headers")).toContain("x-api-key");
  });

  it("ignores cookies on ingest", async () => {
    const response = await post(`/api/${a.number}/envelope/?sentry_key=${a.apiKey}`, envelope(eventId()), { cookie: "better-auth.session_token=forged" });
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("decodes gzip, deflate and br bodies and refuses unknown encodings with 415", async () => {
    const { deflateSync, brotliCompressSync } = await import("node:zlib");
    for (const [encoding, encode] of [
      ["gzip", gzipSync],
      ["deflate", deflateSync],
      ["br", brotliCompressSync],
    ] as const) {
      const response = await post(`/api/${a.number}/envelope/?sentry_key=${a.apiKey}`, encode(Buffer.from(envelope(eventId()))), {
        "content-encoding": encoding,
      });
      expect(response.status, encoding).toBe(200);
    }
    const zstd = await post(`/api/${a.number}/envelope/?sentry_key=${a.apiKey}`, Buffer.from("x"), { "content-encoding": "zstd" });
    expect(zstd.status).toBe(415);
  });

  it("takes native SDK exceptions and events with x-api-key, answering 201", async () => {
    const exception = await post(
      "/api/v1/exceptions",
      JSON.stringify({
        environment: "STAGING",
        platform: "NODE_JS",
        name: "TypeError",
        message: "Cannot read properties of undefined",
        httpContext: { url: "/users/1", method: "GET", statusCode: 500, clientIp: "203.0.113.5" },
        stacktrace: {
          frames: [
            { filename: "main.js", functionName: "bootstrap", lineNumber: 10, columnNumber: 5, absolutePath: "/app/dist/main.js", module: null, inApp: true },
          ],
        },
      }),
      { "x-api-key": b.apiKey, "content-type": "application/json" },
    );
    expect(exception.status).toBe(201);
    expect(await exception.json()).toEqual({ result: "OK" });
    const event = await post("/api/v1/events", JSON.stringify({ name: "purchase_completed", properties: { amount: 29.99 } }), {
      "x-api-key": b.apiKey,
      "content-type": "application/json",
    });
    expect(event.status).toBe(201);
    const stored = await server.database.db.select().from(events).where(eq(events.projectId, b.id));
    expect(stored.map((row) => [row.name, row.properties])).toEqual([["purchase_completed", { amount: 29.99 }]]);
    expect((await post("/api/v1/exceptions", "{}", { "content-type": "application/json" })).status).toBe(401);
    expect((await post("/api/v1/exceptions", JSON.stringify({ name: 5 }), { "x-api-key": b.apiKey })).status).toBe(400);
    const [occurrence] = await server.database.db.select().from(occurrences).where(eq(occurrences.projectId, b.id));
    expect(occurrence.environmentBucket).toBe("STAGING");
  });
});

describe("outcomes of what was not stored", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("counts invalid and too-large bodies and accepted-but-unstored items per project and hour", async () => {
    const project = await seedProject(server.database.db, "outcomes");
    const url = `${server.url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`;
    expect((await fetch(url, { method: "POST", body: "{}\nnot json\n" })).status).toBe(400);
    const huge = `{}\n{"type":"event"}\n${JSON.stringify({ message: "x".repeat(2 * 1024 * 1024) })}\n`;
    expect((await fetch(url, { method: "POST", body: huge })).status).toBe(413);
    const transaction = `{}\n{"type":"transaction"}\n{"type":"transaction","spans":[]}\n`;
    expect((await fetch(url, { method: "POST", body: transaction })).status).toBe(200);
    await server.ingest.close();
    const rows = await server.database.db.select().from(ingestOutcomes).where(eq(ingestOutcomes.projectId, project.projectId));
    const outcome = (name: string) => rows.filter((row) => row.outcome === name).reduce((sum, row) => sum + row.count, 0);
    expect(outcome("invalid")).toBe(1);
    expect(outcome("too_large")).toBe(1);
    expect(rows.find((row) => row.outcome === "filtered")?.reason).toBe("unsupported:transaction");
  });
});
