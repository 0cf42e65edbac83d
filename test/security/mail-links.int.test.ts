/**
 * Security battery — live account links in production logs ("Security hardening" item 12).
 *
 * Without SMTP the log is where a mail's link goes, and whoever reads it can take the account
 * over. Cases:
 * - production without SMTP_URL refuses to start unless MAIL_LOG_LINKS=true, and starts with it;
 * - by default the logged reset and verification links carry no token (redacted), while the
 *   local outbox still has the working link; MAIL_LOG_LINKS=true logs the link as it is.
 * Over HTTP against the running server (the refusal: the start-up rule main.ts applies first).
 */
import { describe, expect, it } from "vitest";
import { startAppProcess } from "../helpers/app-process";
import { InvalidEnvironmentError } from "../../src/server/env";
import { loadStartupEnvironment } from "../../src/server/startup-environment";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { lastMail, PASSWORD, uniqueEmail } from "../helpers/test-users";

const PRODUCTION = { NODE_ENV: "production", AUTH_SECRET: "p".repeat(40), SECRETS_KEY: "5".repeat(64), PGLITE_DATA_DIR: "memory://", CLIENT_MODE: "none" };

async function requestReset(server: TestServer) {
  const email = uniqueEmail("links");
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: server.url }, body: JSON.stringify(body) });
  expect((await post("/api/auth/sign-up/email", { name: "Links", email, password: PASSWORD })).status).toBe(200);
  expect((await post("/api/auth/request-password-reset", { email, redirectTo: "/reset-password" })).status).toBe(200);
  const logged = server.logs.filter((line) => line.msg === "mail not sent (no SMTP_URL)" && line.to === email);
  return { email, logged: logged.map((line) => String(line.actionUrl)) };
}

// Servers start here (some as processes); on a busy shared machine that has taken over 30 s.
describe("mail links in the log", { timeout: 120_000 }, () => {
  it("refuses to start in production without SMTP_URL unless MAIL_LOG_LINKS=true", async () => {
    // What main.ts checks before it opens the database (src/server/env.test.ts proves such an error exits 1).
    let refused: unknown;
    try {
      loadStartupEnvironment({ ...PRODUCTION, HOST: "127.0.0.1", PORT: "0" });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(InvalidEnvironmentError);
    const message = (refused as Error).message;
    expect(message).toContain("Invalid environment configuration");
    expect(message).toContain("SMTP_URL: required when NODE_ENV is production");
    expect(message).toContain("MAIL_LOG_LINKS=true");

    const app = await startAppProcess({ ...PRODUCTION, MAIL_LOG_LINKS: "true" });
    try {
      expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    } finally {
      app.child.kill("SIGTERM");
      await app.exited;
    }
  });

  it("redacts the tokens of logged links by default; the local outbox keeps the working link", async () => {
    const server = await startTestServer();
    try {
      const { email, logged } = await requestReset(server);
      const verify = new URL(lastMail(server, email, "verification").actionUrl);
      const reset = new URL(lastMail(server, email, "reset-password").actionUrl);
      const resetToken = reset.pathname.split("/").pop()!;
      expect(verify.searchParams.get("token")!.length).toBeGreaterThan(10);
      expect(resetToken.length).toBeGreaterThan(10);
      expect(logged).toHaveLength(2);
      const everything = JSON.stringify(server.logs);
      expect(everything).not.toContain(verify.searchParams.get("token"));
      expect(everything).not.toContain(resetToken);
      expect(logged).toContainEqual(expect.stringContaining("/verify-email?token=[Filtered]"));
      expect(logged).toContainEqual(expect.stringContaining("/reset-password/[Filtered]"));
    } finally {
      await server.close();
    }
  });

  it("logs the working link when MAIL_LOG_LINKS=true", async () => {
    const server = await startTestServer({ env: { MAIL_LOG_LINKS: "true" } });
    try {
      const { email, logged } = await requestReset(server);
      expect(logged).toContain(lastMail(server, email, "reset-password").actionUrl);
      expect(logged).toContain(lastMail(server, email, "verification").actionUrl);
    } finally {
      await server.close();
    }
  });
});
