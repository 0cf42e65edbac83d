/**
 * Security battery — unbounded request bodies ("Security hardening" item 7).
 *
 * Every body outside ingest stops at 1 MB before it is parsed. Cases, over HTTP against the
 * running server: an anonymous /api/auth body declared over the limit answers 413 at once; a
 * chunked one (no Content-Length) is cut at the limit and answers 413; the same for tRPC and
 * /api/v1; a normal sign-up body still works.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { PASSWORD, uniqueEmail } from "../helpers/test-users";

interface Sent {
  /** 0 when the server closed the connection before the client could read its answer. */
  status: number;
  body: string;
  /** Bytes written before the answer arrived (or the connection was closed). */
  written: number;
}

/**
 * POSTs `total` bytes of a JSON string in 64 KB chunks, declared or chunked, and stops writing as
 * soon as the server answers: what matters is that it answers before reading everything.
 */
function postLarge(url: string, total: number, declared: boolean): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const headers: Record<string, string> = { "content-type": "application/json", origin: target.origin };
    if (declared) headers["content-length"] = String(total);
    const req = httpRequest(target, { method: "POST", headers });
    let written = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, written }));
    });
    // The server answers 413 and closes at once; a client still writing can see the close (EPIPE,
    // ECONNRESET) before it reads the answer. That too is the body being cut.
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code === "EPIPE" || error.code === "ECONNRESET") resolve({ status: 0, body: "", written });
      else reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!answered && written < total) {
        const size = Math.min(chunk.length, total - written);
        written += size;
        if (!req.write(chunk.subarray(0, size))) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

// Servers start here (some as processes); on a busy shared machine that has taken over 30 s.
describe("non-ingest bodies stop at 1 MB", { timeout: 120_000 }, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);
  afterAll(() => server?.close());

  // Eight times the 1 MB limit.
  const OVER = 8 * 1024 * 1024;

  it("answers 413 to an anonymous /api/auth body declared over the limit, before reading it", async () => {
    const sent = await postLarge(`${server.url}/api/auth/sign-in/email`, OVER, true);
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body).error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: "Request body too large" });
    expect(sent.written).toBeLessThan(OVER);
  });

  it("cuts a chunked /api/auth body at the limit", async () => {
    const sent = await postLarge(`${server.url}/api/auth/sign-up/email`, OVER, false);
    expect([413, 0]).toContain(sent.status);
    expect(sent.written).toBeLessThan(OVER);
  });

  it("answers 413 on tRPC and /api/v1 too", async () => {
    for (const path of ["/api/trpc/project.list", "/api/v1/organizations"]) {
      expect((await postLarge(`${server.url}${path}`, OVER, true)).status, path).toBe(413);
      expect([413, 0], path).toContain((await postLarge(`${server.url}${path}`, OVER, false)).status);
    }
  });

  it("still takes a normal auth body", async () => {
    const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ name: "Small Body", email: uniqueEmail("body"), password: PASSWORD }),
    });
    expect(response.status).toBe(200);
  });
});
