import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedProject } from "../helpers/seed";
import { startTestServer, type TestServer } from "../helpers/test-server";

const eventId = () => crypto.randomUUID().replaceAll("-", "");
const envelope = (id: string) => `{"event_id":"${id}"}\n{"type":"event"}\n{"event_id":"${id}","message":"router test"}\n`;

/** Ingest is answered on the raw request ahead of Express; it must still look like the rest of the app. */
describe("ingest router (ahead of Express)", () => {
  let server: TestServer;
  let project: Awaited<ReturnType<typeof seedProject>>;

  beforeAll(async () => {
    server = await startTestServer();
    project = await seedProject(server.database.db, "router");
  });
  afterAll(() => server.close());

  const envelopeUrl = (path = `/api/${project.number}/envelope/`) => new URL(`${path}?sentry_key=${project.publicKey}`, server.url);

  it("gives ingest answers the app's security headers, a request id and CORS", async () => {
    const response = await fetch(envelopeUrl(), { method: "POST", body: envelope(eventId()), headers: { "x-request-id": "sdk-request-0001" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("sdk-request-0001");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const health = await fetch(new URL("/api/health", server.url));
    expect(health.headers.get("content-security-policy")).toBe(response.headers.get("content-security-policy"));
  });

  it("matches paths as Express did: any case, with or without the trailing slash", async () => {
    for (const path of [`/api/${project.number}/envelope`, `/API/${project.number}/Envelope/`, `/api/${project.number}/store/`]) {
      const body = path.includes("store") ? JSON.stringify({ event_id: eventId(), message: "store" }) : envelope(eventId());
      const response = await fetch(envelopeUrl(path), { method: "POST", body });
      expect(response.status, path).toBe(200);
    }
  });

  it("leaves other methods and paths to Express (JSON 404 with a request id)", async () => {
    const get = await fetch(envelopeUrl(), { method: "GET" });
    expect(get.status).toBe(404);
    expect((await get.json()).error.code).toBe("NOT_FOUND");
    const deeper = await fetch(new URL(`/api/${project.number}/envelope/extra`, server.url), { method: "POST", body: "{}" });
    expect(deeper.status).toBe(404);
  });

  it("writes one log line per ingest request, without the query string that carries the key", async () => {
    const requestId = `router-log-${eventId()}`;
    await fetch(envelopeUrl(), { method: "POST", body: envelope(eventId()), headers: { "x-request-id": requestId } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = server.logs.find((entry) => entry.requestId === requestId && entry.msg === "request");
    expect(line).toMatchObject({ method: "POST", path: `/api/${project.number}/envelope/`, status: 200, aborted: false });
    expect(JSON.stringify(server.logs)).not.toContain(project.publicKey);
  });
});
