/**
 * Stand-ins for alert tests, loopback only: a webhook receiver that keeps every request's raw body
 * and headers (it verifies signatures the way a customer's would), a TCP tripwire that counts
 * connections (a refused target must never be reached), and sign-up through the SMTP catcher.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from "node:net";
import { expect } from "vitest";
import type { SmtpCatcher } from "../auth/smtp-catcher";
import { HttpSession } from "../helpers/http-session";
import type { TestServer } from "../helpers/test-server";
import { PASSWORD, uniqueEmail } from "../helpers/test-users";

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  json: Record<string, unknown>;
}

export interface WebhookReceiver {
  port: number;
  requests: ReceivedRequest[];
  /** Status answered per path (default 200). */
  statusFor: Map<string, number>;
  /** Location answered by /redirect. */
  redirectTo: string;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = { port: 0, requests: [], statusFor: new Map(), redirectTo: "", close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(raw);
      } catch {
        json = {};
      }
      receiver.requests.push({ path: req.url ?? "", headers: req.headers, raw, json });
      if (req.url === "/redirect") return void res.writeHead(307, { location: receiver.redirectTo }).end();
      res.writeHead(receiver.statusFor.get(req.url ?? "") ?? 200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return receiver;
}

export async function startTripwire(host = "127.0.0.1"): Promise<{ port: number; connections: () => number; close(): void; server: TcpServer }> {
  let count = 0;
  const server = createTcpServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => count, close: () => server.close() };
}

/** Signs up with the verification link taken from the SMTP catcher (the server delivers mail over SMTP). */
export async function signUpThroughSmtp(server: TestServer, smtp: SmtpCatcher, name: string, email = uniqueEmail(name.toLowerCase().replace(/\W+/g, "-"))) {
  const session = new HttpSession(server.url);
  const signUp = await session.request("/api/auth/sign-up/email", { body: { name, email, password: PASSWORD } });
  expect(signUp.status, signUp.text).toBe(200);
  const mail = await smtp.waitFor(email, (entry) => entry.links.some((link) => link.includes("verify-email")), 10_000);
  const link = new URL(mail.links.find((entry) => entry.includes("verify-email"))!);
  const verify = await session.request(link.pathname + link.search);
  expect(verify.status, verify.text).toBe(302);
  const me = await session.request("/api/auth/get-session");
  return { session, email, userId: me.body.user.id as string };
}

export async function until<T>(probe: () => T | Promise<T>, timeoutMs = 20_000, what = "condition"): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
