import { Readable } from "node:stream";
import { createGzip } from "node:zlib";
import { gzipSync } from "node:zlib";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedProject } from "../helpers/seed";
import { startTestServer, type TestServer } from "../helpers/test-server";

const id = "0123456789abcdef0123456789abcdef";
const event = JSON.stringify({ event_id: id, exception: { values: [{ type: "E", value: "x" }] } });

/** Battery A2: hostile bodies over HTTP are 400/413/415 (unknown items alone: 200), never 5xx. */
const CORPUS: { name: string; body: string | Buffer; headers?: Record<string, string>; expect: number[] }[] = [
  { name: "empty body", body: "", expect: [400] },
  { name: "truncated header", body: '{"event_id":"0123', expect: [400] },
  { name: "non-JSON envelope header", body: "hello\n{}\n", expect: [400] },
  { name: "non-JSON item header", body: `{}\nnot json\n${event}`, expect: [400] },
  { name: "negative length", body: `{}\n{"type":"event","length":-5}\n${event}`, expect: [400] },
  { name: "huge length", body: `{}\n{"type":"event","length":99999999999}\n${event}`, expect: [400, 413] },
  { name: "wrong length", body: `{}\n{"type":"event","length":3}\n${event}`, expect: [400] },
  {
    name: "invalid UTF-8",
    body: Buffer.concat([Buffer.from(`{}\n{"type":"event"}\n{"message":"`), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}\n')]),
    expect: [400],
  },
  { name: "event_id path traversal", body: `{"event_id":"../../x"}\n{"type":"event"}\n${event}`, expect: [400] },
  { name: "10,000 items", body: `{}\n${'{"type":"session"}\n{}\n'.repeat(10_000)}`, expect: [413, 400] },
  { name: "100,000-deep nesting", body: `{}\n{"type":"event"}\n${"[".repeat(100_000)}${"]".repeat(100_000)}\n`, expect: [400] },
  { name: "unknown item types alone", body: `{}\n{"type":"martian"}\n{"x":1}\n{"type":"profile_chunk"}\n{}\n`, expect: [200] },
  { name: "event is an array", body: `{}\n{"type":"event"}\n[1,2,3]\n`, expect: [400] },
  { name: "gzip-of-gzip", body: gzipSync(gzipSync(Buffer.from(`{}\n{"type":"event"}\n${event}\n`))), headers: { "content-encoding": "gzip" }, expect: [400] },
  { name: "zstd", body: Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), headers: { "content-encoding": "zstd" }, expect: [415] },
  { name: "corrupt gzip", body: Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]), headers: { "content-encoding": "gzip" }, expect: [400] },
];

function postStream(url: string, body: Readable, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { ...headers, "transfer-encoding": "chunked" } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    body.pipe(req);
    body.on("error", () => req.destroy());
  });
}

describe("ingest input over HTTP (battery A2–A5)", () => {
  let server: TestServer;
  let url: string;
  beforeAll(async () => {
    server = await startTestServer({ env: { LOG_LEVEL: "warn" } });
    const project = await seedProject(server.database.db, "robust");
    url = `${server.url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`;
  });
  afterAll(() => server.close());

  it.each(CORPUS)("$name → $expect", async ({ body, headers, expect: expected }) => {
    const response = await fetch(url, { method: "POST", body: typeof body === "string" ? body : new Uint8Array(body), headers });
    expect(expected).toContain(response.status);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it("cuts a gzip bomb (1 GiB of zeros) off at the limit with 413, quickly and without growing RSS", async () => {
    // The payload workers start with the first body: their start-up is not the bomb's growth.
    await server.ingest.service.deps.payloads?.whenReady();
    const rssBefore = process.memoryUsage().rss;
    let produced = 0;
    const zeros = new Readable({
      read() {
        if (produced >= 1024 ** 3) return this.push(null);
        produced += 1024 * 1024;
        this.push(Buffer.alloc(1024 * 1024));
      },
    });
    const started = performance.now();
    const status = await postStream(url, zeros.pipe(createGzip()), { "content-encoding": "gzip" }).catch(() => 413);
    const elapsed = performance.now() - started;
    zeros.destroy();
    const growth = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    console.log(
      `A3 gzip bomb over HTTP: status=${status} in ${Math.round(elapsed)} ms, zeros generated=${produced / 2 ** 20} MiB, RSS growth=${growth.toFixed(1)} MiB`,
    );
    expect(status).toBe(413);
    expect(growth).toBeLessThan(64);
  });

  it("refuses a 10 MiB event with 413 and trims over-long strings instead of rejecting them", async () => {
    const huge = `{}\n{"type":"event"}\n${JSON.stringify({ event_id: id, message: "x".repeat(10 * 1024 * 1024) })}\n`;
    expect((await fetch(url, { method: "POST", body: huge })).status).toBe(413);
    const longId = "fedcba9876543210fedcba9876543210";
    const long = `{}\n{"type":"event"}\n${JSON.stringify({ event_id: longId, message: "y".repeat(200_000) })}\n`;
    const response = await fetch(url, { method: "POST", body: long });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: longId });
  });
});
