/**
 * Security battery — development-mode exposure of the local outbox ("Security hardening" item 1).
 *
 * /dev/outbox lists live reset, verification and invitation links, so it answers only a client on
 * this machine. Cases, over HTTP against the running server:
 * - without TRUST_PROXY, a loopback peer carrying any forwarding header (X-Forwarded-For,
 *   Forwarded, X-Real-IP, X-Forwarded-Host, …) gets 403 and why: a proxy on this machine makes
 *   every peer loopback, and nothing trusted says who its client is;
 * - behind a reverse proxy on the same machine (TRUST_PROXY=1, TCP peer loopback) a forwarded
 *   visitor from elsewhere — by X-Forwarded-For, Forwarded or X-Real-IP — gets 404, a forwarded
 *   loopback client gets the page;
 * - SMTP_URL set: no outbox at all, even with DEV_OUTBOX=true;
 * - the start-up log says where the outbox is and that only this machine can reach it.
 * A TCP peer off this machine cannot be produced over loopback, so the peer rule (a forged
 * X-Forwarded-For never helps) is covered on the predicate in src/server/http/loopback-only.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppProcess } from "../helpers/app-process";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { PASSWORD, uniqueEmail } from "../helpers/test-users";

// Servers start here (some as processes); on a busy shared machine that has taken over 30 s.
/** A server whose outbox holds one live verification link. */
async function serverWithAMail(env: Record<string, string>) {
  const server = await startTestServer({ env });
  const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ name: "Outbox", email: uniqueEmail("outbox"), password: PASSWORD }),
  });
  expect(signUp.status).toBe(200);
  return server;
}

describe("/dev/outbox answers this machine only", { timeout: 120_000 }, () => {
  describe("without TRUST_PROXY, through a proxy on the same machine", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await serverWithAMail({ TRUST_PROXY: "0" });
    }, 120_000);
    afterAll(() => server?.close());

    it.each([
      ["x-forwarded-for", "203.0.113.7"],
      ["x-forwarded-for", "127.0.0.1"],
      ["forwarded", "for=203.0.113.7;proto=https"],
      ["x-real-ip", "203.0.113.7"],
      ["x-forwarded-host", "faultline.example"],
    ])("refuses a request carrying %s: %s, and says why", async (name, value) => {
      for (const path of ["/dev/outbox", "/dev/outbox.json"]) {
        const response = await fetch(`${server.url}${path}`, { headers: { [name]: value } });
        expect(response.status, path).toBe(403);
        const text = await response.text();
        expect(text).not.toContain("verify-email");
        expect(JSON.parse(text).error.message).toContain(`came through a proxy (${name})`);
        expect(JSON.parse(text).error.message).toContain("TRUST_PROXY");
      }
    });

    it("serves a client on this machine that came straight", async () => {
      const response = await fetch(`${server.url}/dev/outbox.json`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { actionUrl: string }[]).some((mail) => mail.actionUrl.includes("/verify-email?token="))).toBe(true);
    });
  });

  describe("behind a reverse proxy on the same machine (TRUST_PROXY=1)", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await serverWithAMail({ TRUST_PROXY: "1" });
    }, 120_000);
    afterAll(() => server?.close());

    it("refuses a visitor the proxy forwards from elsewhere, on both forms", async () => {
      for (const path of ["/dev/outbox", "/dev/outbox.json"]) {
        const response = await fetch(`${server.url}${path}`, { headers: { "x-forwarded-for": "203.0.113.7" } });
        expect(response.status, path).toBe(404);
        expect(await response.text()).not.toContain("verify-email");
      }
    });

    it.each<Record<string, string>>([
      { forwarded: "for=203.0.113.7" },
      { forwarded: 'for="[2001:db8::17]:4711"' },
      { "x-real-ip": "203.0.113.7" },
      { "x-forwarded-for": "127.0.0.1", "x-real-ip": "203.0.113.7" },
    ])("refuses a visitor from elsewhere that a proxy names by %o", async (headers) => {
      const response = await fetch(`${server.url}/dev/outbox.json`, { headers });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("verify-email");
    });

    it("refuses a forged loopback address the proxy appends the real client to", async () => {
      const response = await fetch(`${server.url}/dev/outbox.json`, { headers: { "x-forwarded-for": "127.0.0.1, 203.0.113.7" } });
      expect(response.status).toBe(404);
    });

    it("serves a client on this machine, forwarded or direct", async () => {
      const forwarded = await fetch(`${server.url}/dev/outbox.json`, { headers: { "x-forwarded-for": "127.0.0.1" } });
      expect(forwarded.status).toBe(200);
      const mails = (await forwarded.json()) as { actionUrl: string }[];
      expect(mails.some((mail) => mail.actionUrl.includes("/verify-email?token="))).toBe(true);
      expect((await fetch(`${server.url}/dev/outbox`)).status).toBe(200);
      expect((await fetch(`${server.url}/dev/outbox.json`, { headers: { "x-real-ip": "127.0.0.1", forwarded: "for=127.0.0.1" } })).status).toBe(200);
    });
  });

  it("is off whenever SMTP_URL is set, even with DEV_OUTBOX=true", async () => {
    // Port 9 on loopback: nothing is mailed in this test, so nothing connects to it.
    const server = await startTestServer({ env: { SMTP_URL: "smtp://127.0.0.1:9", DEV_OUTBOX: "true" } });
    try {
      expect(server.env.devOutbox).toBe(false);
      expect((await fetch(`${server.url}/dev/outbox`)).status).toBe(404);
      expect((await fetch(`${server.url}/dev/outbox.json`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("says at start-up where the outbox is and that only this machine reaches it", async () => {
    const app = await startAppProcess({ PGLITE_DATA_DIR: "memory://", LOG_LEVEL: "info" });
    try {
      const port = new URL(app.url).port;
      await expect.poll(() => app.output()).toContain("/dev/outbox");
      const line = app
        .output()
        .split("\n")
        .find((entry) => entry.includes("/dev/outbox"));
      expect(JSON.parse(line!).msg).toBe(`no SMTP_URL: mails are kept at http://localhost:${port}/dev/outbox, reachable from this machine only`);
    } finally {
      app.child.kill("SIGTERM");
      await app.exited;
    }
  });
});
