import { createServer, type Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseOutboundAllow } from "./outbound-allow";
import { createOutboundHttp, OutboundFailedError, OutboundRefusedError, TARGET_NOT_ALLOWED } from "./outbound-http";

// Loopback only: every server here listens on 127.0.0.0/8 (or ::1), and every refused target is a loopback port.

/** A TCP listener that only counts who connected: a refused request must never reach it. */
async function tripwire(host: string): Promise<{ server: TcpServer; port: number; connections: () => number }> {
  let count = 0;
  const server = createTcpServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => count };
}

async function listen(server: Server, host: string, port = 0) {
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return (server.address() as AddressInfo).port;
}

describe("outbound HTTP (SSRF-safe)", () => {
  let receiver: Server;
  let receiverPort: number;
  const received: { path: string; body: string; host: string }[] = [];
  let wire: Awaited<ReturnType<typeof tripwire>>;
  let wire6: Awaited<ReturnType<typeof tripwire>> | null = null;
  let redirectTo = "";

  beforeAll(async () => {
    wire = await tripwire("127.0.0.1");
    wire6 = await tripwire("::1").catch(() => null);
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        received.push({ path: req.url ?? "", body, host: req.socket.localAddress ?? "" });
        if (req.url === "/redirect") {
          res.writeHead(302, { location: redirectTo }).end();
        } else if (req.url === "/big") {
          res.writeHead(200).end("x".repeat(10_000));
        } else if (req.url === "/slow") {
          setTimeout(() => res.writeHead(200).end("late"), 2000);
        } else {
          res.writeHead(200, { "content-type": "text/plain" }).end("ok");
        }
      });
    });
    receiverPort = await listen(receiver, "127.0.0.1");
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    wire.server.close();
    wire6?.server.close();
  });

  const client = (extra = "") =>
    createOutboundHttp({ allow: parseOutboundAllow(`127.0.0.1:${receiverPort}${extra}`), timeoutMs: 500, maxResponseBytes: 1000, maxRedirects: 3 });

  it("reaches an allowed loopback receiver", async () => {
    const response = await client().request({ url: `http://127.0.0.1:${receiverPort}/hook`, body: '{"a":1}' });
    expect(response.status).toBe(200);
    expect(response.body).toBe("ok");
    expect(received.at(-1)).toMatchObject({ path: "/hook", body: '{"a":1}' });
  });

  it.each([
    ["a loopback port not in OUTBOUND_ALLOW", () => `http://127.0.0.1:${wire.port}/hook`],
    ["localhost on that port", () => `http://localhost:${wire.port}/hook`],
    ["the decimal spelling 2130706433", () => `http://2130706433:${wire.port}/hook`],
    ["the hex spelling 0x7f.1", () => `http://0x7f.1:${wire.port}/hook`],
    ["the octal spelling 0177.0.0.1", () => `http://0177.0.0.1:${wire.port}/hook`],
    ["IPv4-mapped IPv6", () => `http://[::ffff:127.0.0.1]:${wire.port}/hook`],
  ])("refuses %s before connecting", async (_label, url) => {
    await expect(client().request({ url: url(), body: "{}" })).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(wire.connections()).toBe(0);
  });

  it("refuses http://[::1]:… before connecting", async () => {
    const port = wire6?.port ?? wire.port;
    await expect(client().request({ url: `http://[::1]:${port}/hook`, body: "{}" })).rejects.toThrow(TARGET_NOT_ALLOWED);
    expect(wire6?.connections() ?? 0).toBe(0);
  });

  it.each(["file:///etc/passwd", "gopher://127.0.0.1:70/_x", "ftp://127.0.0.1/", "not a url"])("refuses %s", async (url) => {
    await expect(client().request({ url, body: "{}" })).rejects.toBeInstanceOf(OutboundRefusedError);
  });

  it("refuses a redirect from an allowed receiver to a forbidden loopback port, without connecting there", async () => {
    redirectTo = `http://127.0.0.1:${wire.port}/stolen`;
    await expect(client().request({ url: `http://127.0.0.1:${receiverPort}/redirect`, body: "{}" })).rejects.toThrow(TARGET_NOT_ALLOWED);
    expect(wire.connections()).toBe(0);
  });

  it("follows a redirect to another allowed target", async () => {
    redirectTo = `http://127.0.0.1:${receiverPort}/landed`;
    const response = await client().request({ url: `http://127.0.0.1:${receiverPort}/redirect`, body: "{}" });
    expect(response.status).toBe(200);
    expect(received.at(-1)?.path).toBe("/landed");
  });

  it("connects to the address it checked even when the name resolves differently afterwards (DNS rebinding)", async () => {
    // 127.0.0.2 is allowed as a range; the name first resolves there, then to the forbidden 127.0.0.1.
    const rebinder = createServer((req, res) => res.writeHead(200).end(`via ${req.socket.localAddress}`));
    const port = await listen(rebinder, "127.0.0.2");
    const trap = await tripwire("127.0.0.1").catch(() => null);
    let calls = 0;
    const http = createOutboundHttp({
      allow: parseOutboundAllow("127.0.0.2/32"),
      timeoutMs: 1000,
      maxResponseBytes: 1000,
      maxRedirects: 0,
      resolve: async () => [{ address: calls++ === 0 ? "127.0.0.2" : "127.0.0.1", family: 4 }],
    });
    const response = await http.request({ url: `http://rebind.test:${port}/`, body: "{}" });
    expect(response.body).toBe("via 127.0.0.2");
    expect(calls).toBe(1);
    // A second request resolves again and is refused: the new answer is checked, not trusted.
    await expect(http.request({ url: `http://rebind.test:${port}/`, body: "{}" })).rejects.toBeInstanceOf(OutboundRefusedError);
    rebinder.close();
    trap?.server.close();
  });

  it("refuses a name that resolves to any forbidden address among public ones", async () => {
    const http = createOutboundHttp({
      allow: parseOutboundAllow(""),
      timeoutMs: 500,
      maxResponseBytes: 1000,
      maxRedirects: 0,
      resolve: async () => [
        { address: "93.184.216.34", family: 4 },
        { address: "169.254.169.254", family: 4 },
      ],
    });
    const refusal = await http.request({ url: "http://mixed.test/", body: "{}" }).catch((error: OutboundRefusedError) => error);
    expect(refusal).toBeInstanceOf(OutboundRefusedError);
    expect((refusal as OutboundRefusedError).detail).toMatch(/169\.254\.169\.254 \(link-local\)/);
  });

  it("says a target is not allowed, not what it resolved to (the detail is for the server log)", async () => {
    const http = createOutboundHttp({
      allow: parseOutboundAllow(""),
      timeoutMs: 500,
      maxResponseBytes: 1000,
      maxRedirects: 0,
      resolve: async () => [{ address: "10.20.30.40", family: 4 }],
    });
    const refusal = (await http.request({ url: "http://internal.test/", body: "{}" }).catch((error) => error)) as OutboundRefusedError;
    expect(refusal.message).toBe(TARGET_NOT_ALLOWED);
    expect(refusal.detail).toBe("internal.test:80 resolves to 10.20.30.40 (private)");
    const loopback = (await client()
      .request({ url: `http://localhost:${wire.port}/hook`, body: "{}" })
      .catch((error) => error)) as OutboundRefusedError;
    expect(loopback.message).toBe(TARGET_NOT_ALLOWED);
    expect(loopback.message).not.toMatch(/127\.0\.0\.1|::1|loopback/);
    expect(wire.connections()).toBe(0);
  });

  it("a connection failure names no address either", async () => {
    const closed = await tripwire("127.0.0.1");
    await new Promise((resolve) => closed.server.close(resolve));
    const failure = (await client(`,127.0.0.1:${closed.port}`)
      .request({ url: `http://127.0.0.1:${closed.port}/hook`, body: "{}" })
      .catch((error) => error)) as OutboundFailedError;
    expect(failure).toBeInstanceOf(OutboundFailedError);
    expect(failure.message).toBe("Could not reach the receiver (ECONNREFUSED)");
    expect(failure.detail).toContain(`127.0.0.1:${closed.port}`);
  });

  it("cuts off an oversized answer and times out a slow one", async () => {
    await expect(client().request({ url: `http://127.0.0.1:${receiverPort}/big`, method: "GET" })).rejects.toThrow(/exceeded 1000 bytes/);
    const started = Date.now();
    await expect(client().request({ url: `http://127.0.0.1:${receiverPort}/slow`, method: "GET" })).rejects.toBeInstanceOf(OutboundFailedError);
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
