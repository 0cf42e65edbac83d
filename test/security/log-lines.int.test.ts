/**
 * Security battery — log forging ("Security hardening" item 8).
 *
 * Case covered: a member's hostile input, and better-auth's own logger (coloured, multi-line text
 * with request data in it), must not write forged or non-JSON lines into the server's log. The
 * server runs as its own process (what `npm start` runs) and its whole stdout is read back: every
 * line must be one JSON object, and the `{"forged":true}` a member smuggles in through `sortBy`
 * must never be a line of its own. stdout and stderr are read together (a container's log holds
 * both). Over HTTP, against the running server. A sortBy naming no column answers 400, not 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppProcess, type AppProcess } from "../helpers/app-process";
import { HttpSession } from "../helpers/http-session";
import { PASSWORD, uniqueEmail } from "../helpers/test-users";

const FORGED = '\n{"forged":true}\n';

// Servers start here (some as processes); on a busy shared machine that has taken over 30 s.
describe("every log line is one JSON object", { timeout: 120_000 }, () => {
  let app: AppProcess;

  beforeAll(async () => {
    app = await startAppProcess({ PGLITE_DATA_DIR: "memory://", LOG_LEVEL: "info", REQUIRE_EMAIL_VERIFICATION: "false" });
  }, 120_000);

  afterAll(async () => {
    app?.child.kill("SIGTERM");
    await app?.exited;
  });

  it("keeps a forged sortBy and better-auth's warnings inside JSON lines", async () => {
    const session = new HttpSession(app.url);
    const email = uniqueEmail("logs");
    const signUp = await session.request("/api/auth/sign-up/email", { body: { name: "Log Tester", email, password: PASSWORD } });
    expect(signUp.status, signUp.text).toBe(200);
    const org = await session.request("/api/auth/organization/create", { body: { name: "Logs", slug: `logs-${Date.now().toString(36)}` } });
    expect(org.status, org.text).toBe(200);

    // A member lists the members sorted by a "column" that is a forged log line.
    const query = new URLSearchParams({ organizationId: org.body.id, sortBy: `name${FORGED}`, sortDirection: "asc" });
    const listed = await session.request(`/api/auth/organization/list-members?${query}`);
    expect(listed.status, listed.text).toBe(400);
    // better-auth warns (through its logger) about a failed sign-in with a wrong password.
    const wrong = await new HttpSession(app.url).request("/api/auth/sign-in/email", { body: { email, password: "wrong-password-1" } });
    expect(wrong.status).toBe(401);
    await new HttpSession(app.url).request("/api/auth/sign-in/email", { body: { email: `nobody${FORGED}@example.com`, password: "wrong-password-1" } });

    // The request lines are written when each response closes; wait for the last one.
    await expect
      .poll(
        () =>
          app
            .output()
            .split("\n")
            .filter((line) => line.includes('"/api/auth/sign-in/email"')).length,
      )
      .toBe(2);
    const lines = app
      .output()
      .split("\n")
      .filter((line) => line !== "");
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      let parsed: unknown;
      expect(() => (parsed = JSON.parse(line)), `not a JSON line: ${line}`).not.toThrow();
      expect(parsed).toBeTypeOf("object");
      expect(parsed).not.toEqual({ forged: true });
    }
    // better-auth's warning came through the product's logger, as one of those JSON lines.
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(expect.objectContaining({ level: "warn", msg: "better-auth: Invalid password" }));
  });
});
