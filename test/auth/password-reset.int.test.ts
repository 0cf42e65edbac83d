import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema/index";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { lastMail, PASSWORD, signUpVerified, uniqueEmail } from "../helpers/test-users";
import { atClockOffset, AUTH, currentUser, HOUR, location, mailsTo, MINUTE, pathOf, signIn } from "./auth-kit";

const NEW_PASSWORD = "a-brand-new-password";

describe("forgotten password", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function requestReset(email: string, redirectTo = "/auth/reset-password") {
    return new HttpSession(server.url).request(`${AUTH}/request-password-reset`, { body: { email, redirectTo } });
  }

  /** Requests a reset and returns the mailed link and its token. */
  async function mailedReset(email: string) {
    const response = await requestReset(email);
    expect(response.status).toBe(200);
    const link = new URL(lastMail(server, email, "reset-password").actionUrl);
    const token = link.pathname.split("/").pop() as string;
    return { link, token };
  }

  it("answers identically for a known and an unknown email, and mails only the known one", async () => {
    const { email } = await signUpVerified(server);
    const unknown = uniqueEmail("stranger");
    const known = await requestReset(email);
    const missing = await requestReset(unknown);
    expect(missing.status).toBe(known.status);
    expect(missing.text).toBe(known.text);
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ status: true, message: "If this email exists in our system, check your email for the reset link" });
    expect(mailsTo(server, email, "reset-password")).toHaveLength(1);
    expect(mailsTo(server, unknown)).toHaveLength(0);
  });

  it("mails a link that redirects to the callback with a 24-character token, and a bad token with error=INVALID_TOKEN", async () => {
    const { email } = await signUpVerified(server);
    const { link, token } = await mailedReset(email);
    expect(link.pathname).toBe(`${AUTH}/reset-password/${token}`);
    expect(link.searchParams.get("callbackURL")).toBe("/auth/reset-password");
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/);

    const opened = await new HttpSession(server.url).request(pathOf(link.href));
    expect(opened.status).toBe(302);
    const target = location(server, opened);
    expect(target.pathname).toBe("/auth/reset-password");
    expect(target.searchParams.get("token")).toBe(token);

    const bad = await new HttpSession(server.url).request(`${AUTH}/reset-password/${"x".repeat(24)}?callbackURL=%2Fauth%2Freset-password`);
    expect(bad.status).toBe(302);
    expect(location(server, bad).pathname).toBe("/auth/reset-password");
    expect(location(server, bad).searchParams.get("error")).toBe("INVALID_TOKEN");
    expect(location(server, bad).searchParams.get("token")).toBeNull();
  });

  it("changes the password with the token once, and signs out every existing session", async () => {
    const { email, session: first } = await signUpVerified(server);
    const second = (await signIn(server, email, PASSWORD)).session;
    const { token } = await mailedReset(email);

    const tooShort = await new HttpSession(server.url).request(`${AUTH}/reset-password`, { body: { newPassword: "short", token } });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.message).toBe("Password too short");

    const reset = await new HttpSession(server.url).request(`${AUTH}/reset-password`, { body: { newPassword: NEW_PASSWORD, token } });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toEqual({ status: true });

    // revokeSessionsOnPasswordReset: both browsers are signed out on their next request.
    expect(await currentUser(first)).toBeNull();
    expect(await currentUser(second)).toBeNull();
    expect((await first.query("project.list")).error?.code).toBe("UNAUTHORIZED");

    expect((await signIn(server, email, PASSWORD)).response.status).toBe(401);
    expect((await signIn(server, email, NEW_PASSWORD)).response.status).toBe(200);

    const reuse = await new HttpSession(server.url).request(`${AUTH}/reset-password`, { body: { newPassword: "yet-another-password", token } });
    expect(reuse.status).toBe(400);
    expect(reuse.body).toMatchObject({ code: "INVALID_TOKEN", message: "Invalid token" });
    expect((await signIn(server, email, NEW_PASSWORD)).response.status).toBe(200);
    // The used token no longer opens the reset page either.
    const reopened = await new HttpSession(server.url).request(`${AUTH}/reset-password/${token}?callbackURL=%2Fr`);
    expect(location(server, reopened).searchParams.get("error")).toBe("INVALID_TOKEN");
  });

  it("refuses a token older than one hour", async () => {
    const { email } = await signUpVerified(server);
    const { link, token } = await mailedReset(email);
    const [row] = await server.database.db
      .select()
      .from(schema.verification)
      .where(eq(schema.verification.identifier, `reset-password:${token}`));
    expect(Math.abs(row.expiresAt.getTime() - (Date.now() + HOUR))).toBeLessThan(MINUTE);

    await atClockOffset(59 * MINUTE, async () => {
      const opened = await new HttpSession(server.url).request(pathOf(link.href));
      expect(location(server, opened).searchParams.get("token")).toBe(token);
    });
    await atClockOffset(61 * MINUTE, async () => {
      const opened = await new HttpSession(server.url).request(pathOf(link.href));
      expect(location(server, opened).searchParams.get("error")).toBe("INVALID_TOKEN");
      const reset = await new HttpSession(server.url).request(`${AUTH}/reset-password`, { body: { newPassword: NEW_PASSWORD, token } });
      expect(reset.status).toBe(400);
      expect(reset.body.message).toBe("Invalid token");
    });
    expect((await signIn(server, email, PASSWORD)).response.status).toBe(200);
    expect((await signIn(server, email, NEW_PASSWORD)).response.status).toBe(401);
  });
});
