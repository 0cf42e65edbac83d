import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema/index";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { lastMail, PASSWORD, signUpVerified, uniqueEmail } from "../helpers/test-users";
import { atClockOffset, AUTH, currentUser, location, mailsTo, MINUTE, pathOf, signIn, signUp, userRowByEmail } from "./auth-kit";

describe("email and password sign-up and sign-in", () => {
  /** Default installation: email verification required. */
  let strict: TestServer;
  /** REQUIRE_EMAIL_VERIFICATION=false. */
  let relaxed: TestServer;
  beforeAll(async () => {
    [strict, relaxed] = await Promise.all([startTestServer(), startTestServer({ env: { REQUIRE_EMAIL_VERIFICATION: "false" } })]);
  });
  afterAll(async () => {
    await Promise.all([strict?.close(), relaxed?.close()]);
  });

  it("accepts passwords of 8 to 128 characters and names the bound it breaks", async () => {
    const tooShort = await signUp(strict, { password: "a".repeat(7) });
    expect(tooShort.response.status).toBe(400);
    expect(tooShort.response.body).toMatchObject({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
    expect(await userRowByEmail(strict, tooShort.email)).toBeUndefined();

    const tooLong = await signUp(strict, { password: "a".repeat(129) });
    expect(tooLong.response.status).toBe(400);
    expect(tooLong.response.body).toMatchObject({ code: "PASSWORD_TOO_LONG", message: "Password too long" });
    expect(await userRowByEmail(strict, tooLong.email)).toBeUndefined();

    for (const password of ["a".repeat(8), "b".repeat(128)]) {
      const ok = await signUp(strict, { password });
      expect(ok.response.status, ok.response.text).toBe(200);
      expect(await userRowByEmail(strict, ok.email)).toMatchObject({ emailVerified: false });
    }
  });

  it("rejects an invalid email and answers 'Invalid email or password' for a wrong password or an unknown user", async () => {
    const invalid = await signIn(strict, "not-an-email", PASSWORD);
    expect(invalid.response.status).toBe(400);
    expect(invalid.response.body.message).toBe("Invalid email");

    const { email } = await signUpVerified(strict);
    const wrong = await signIn(strict, email, "wrong-password-123");
    const unknown = await signIn(strict, uniqueEmail("nobody"), PASSWORD);
    for (const attempt of [wrong, unknown]) {
      expect(attempt.response.status).toBe(401);
      expect(attempt.response.body).toMatchObject({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
      expect(attempt.response.headers.getSetCookie()).toEqual([]);
    }
    const right = await signIn(strict, email.toUpperCase(), PASSWORD);
    expect(right.response.status).toBe(200);
    expect((await currentUser(right.session))?.email).toBe(email.toLowerCase());
  });

  it("blocks an unverified user with 403 'Email not verified' and mails a fresh link", async () => {
    const { email, response } = await signUp(strict);
    expect(response.status).toBe(200);
    expect(response.body.token).toBeNull();
    expect(response.headers.getSetCookie().some((line) => line.includes("session_token"))).toBe(false);
    expect(mailsTo(strict, email, "verification")).toHaveLength(1);

    const attempt = await signIn(strict, email, PASSWORD);
    expect(attempt.response.status).toBe(403);
    expect(attempt.response.body).toMatchObject({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    expect(await currentUser(attempt.session)).toBeNull();
    // emailVerification.sendOnSignIn: the blocked attempt sends a new link.
    expect(mailsTo(strict, email, "verification")).toHaveLength(2);
  });

  it("lets an unverified user in when REQUIRE_EMAIL_VERIFICATION=false", async () => {
    const { email, session, response } = await signUp(relaxed);
    expect(response.status).toBe(200);
    expect(response.body.token).toEqual(expect.any(String));
    expect(await currentUser(session)).toMatchObject({ email: email.toLowerCase(), emailVerified: false });

    const again = await signIn(relaxed, email, PASSWORD);
    expect(again.response.status, again.response.text).toBe(200);
    expect(again.response.body.user).toMatchObject({ email: email.toLowerCase(), emailVerified: false });
  });

  it("answers a duplicate sign-up with 422 'User already exists. Use another email.' when sign-up signs in directly", async () => {
    const { email } = await signUp(relaxed);
    const duplicate = await signUp(relaxed, { email: email.toUpperCase(), password: "another-password-1" });
    expect(duplicate.response.status).toBe(422);
    expect(duplicate.response.body).toMatchObject({ code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", message: "User already exists. Use another email." });
    const rows = await relaxed.database.db.select().from(schema.user).where(eq(schema.user.email, email.toLowerCase()));
    expect(rows).toHaveLength(1);
  });

  it("hides a duplicate sign-up behind the ordinary answer when verification is required (no enumeration)", async () => {
    const { email, userId } = await signUpVerified(strict);
    const duplicate = await signUp(strict, { email, password: "another-password-1" });
    const fresh = await signUp(strict);
    expect(duplicate.response.status).toBe(fresh.response.status);
    expect(Object.keys(duplicate.response.body).sort()).toEqual(Object.keys(fresh.response.body).sort());
    expect(duplicate.response.body.token).toBeNull();
    expect(duplicate.response.body.user.id).not.toBe(userId);
    // Nothing changed: one row, the old password still works, the new one does not.
    const rows = await strict.database.db.select().from(schema.user).where(eq(schema.user.email, email));
    expect(rows).toHaveLength(1);
    expect((await signIn(strict, email, PASSWORD)).response.status).toBe(200);
    expect((await signIn(strict, email, "another-password-1")).response.status).toBe(401);
  });

  it("verifies through the mailed link, signs the user in and redirects to the callback", async () => {
    const { email } = await signUp(strict, { callbackURL: "/welcome" });
    const mail = lastMail(strict, email, "verification");
    const link = new URL(mail.actionUrl);
    expect(link.pathname).toBe(`${AUTH}/verify-email`);
    expect(link.searchParams.get("callbackURL")).toBe("/welcome");

    // Opened in a browser that has no session yet (the mail client).
    const browser = new HttpSession(strict.url);
    const opened = await browser.request(pathOf(mail.actionUrl));
    expect(opened.status).toBe(302);
    expect(location(strict, opened).pathname).toBe("/welcome");
    expect(location(strict, opened).searchParams.get("error")).toBeNull();
    expect(await currentUser(browser)).toMatchObject({ email: email.toLowerCase(), emailVerified: true });
    expect(await userRowByEmail(strict, email)).toMatchObject({ emailVerified: true });
    expect((await signIn(strict, email, PASSWORD)).response.status).toBe(200);
  });

  it("redirects a bad or expired verification token with error=invalid_token / token_expired, and answers 401 without a callback", async () => {
    const invalid = await new HttpSession(strict.url).request(`${AUTH}/verify-email?token=not-a-jwt&callbackURL=%2Fverified`);
    expect(invalid.status).toBe(302);
    expect(location(strict, invalid).pathname).toBe("/verified");
    expect(location(strict, invalid).searchParams.get("error")).toBe("invalid_token");

    const noCallback = await new HttpSession(strict.url).request(`${AUTH}/verify-email?token=not-a-jwt`);
    expect(noCallback.status).toBe(401);
    expect(noCallback.body).toMatchObject({ code: "INVALID_TOKEN", message: "Invalid token" });

    const { email } = await signUp(strict, { callbackURL: "/verified" });
    const link = pathOf(lastMail(strict, email, "verification").actionUrl);
    const tokenOnly = link.replace(/&callbackURL=[^&]*/, "");

    // The token lives one hour (emailVerification.expiresIn).
    await atClockOffset(61 * MINUTE, async () => {
      const expired = await new HttpSession(strict.url).request(link);
      expect(expired.status).toBe(302);
      expect(location(strict, expired).searchParams.get("error")).toBe("token_expired");
      const expiredNoCallback = await new HttpSession(strict.url).request(tokenOnly);
      expect(expiredNoCallback.status).toBe(401);
      expect(expiredNoCallback.body).toMatchObject({ code: "TOKEN_EXPIRED" });
    });
    expect(await userRowByEmail(strict, email)).toMatchObject({ emailVerified: false });

    await atClockOffset(59 * MINUTE, async () => {
      const stillValid = await new HttpSession(strict.url).request(link);
      expect(stillValid.status).toBe(302);
      expect(location(strict, stillValid).searchParams.get("error")).toBeNull();
    });
    expect(await userRowByEmail(strict, email)).toMatchObject({ emailVerified: true });
  });

  it("redirects with error=user_not_found when the account behind a valid token is gone", async () => {
    const { email } = await signUp(strict);
    const link = pathOf(lastMail(strict, email, "verification").actionUrl).replace(/callbackURL=[^&]*/, "callbackURL=%2Fverified");
    await strict.database.db.delete(schema.user).where(eq(schema.user.email, email.toLowerCase()));
    const opened = await new HttpSession(strict.url).request(link);
    expect(opened.status).toBe(302);
    expect(location(strict, opened).searchParams.get("error")).toBe("user_not_found");
  });

  it("resends verification only to unverified addresses", async () => {
    // Signed out: the answer never says whether the address exists or is verified.
    const unverified = await signUp(strict);
    const verified = await signUpVerified(strict);
    const unknown = uniqueEmail("unknown");
    const before = { unverified: mailsTo(strict, unverified.email).length, verified: mailsTo(strict, verified.email).length };
    const answers = [];
    for (const email of [unverified.email, verified.email, unknown]) {
      const response = await new HttpSession(strict.url).request(`${AUTH}/send-verification-email`, { body: { email } });
      answers.push({ status: response.status, body: response.body });
    }
    expect(answers).toEqual([answers[0], answers[0], answers[0]]);
    expect(answers[0]).toEqual({ status: 200, body: { status: true } });
    expect(mailsTo(strict, unverified.email, "verification")).toHaveLength(before.unverified + 1);
    expect(mailsTo(strict, verified.email)).toHaveLength(before.verified);
    expect(mailsTo(strict, unknown)).toHaveLength(0);

    // Signed in and already verified: refused with the spec's message.
    const own = await verified.session.request(`${AUTH}/send-verification-email`, { body: { email: verified.email } });
    expect(own.status).toBe(400);
    expect(own.body).toMatchObject({ code: "EMAIL_ALREADY_VERIFIED", message: "You can only send a verification email to an unverified email" });
    expect(mailsTo(strict, verified.email)).toHaveLength(before.verified);

    // Signed in but unverified (verification not required): allowed for the own address only.
    const pending = await signUp(relaxed);
    const other = await signUp(relaxed);
    const foreign = await pending.session.request(`${AUTH}/send-verification-email`, { body: { email: other.email } });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ code: "EMAIL_MISMATCH", message: "You can only send a verification email to your own email" });
    const count = mailsTo(relaxed, pending.email, "verification").length;
    const resend = await pending.session.request(`${AUTH}/send-verification-email`, { body: { email: pending.email, callbackURL: "/again" } });
    expect(resend.status).toBe(200);
    expect(mailsTo(relaxed, pending.email, "verification")).toHaveLength(count + 1);
    expect(new URL(lastMail(relaxed, pending.email, "verification").actionUrl).searchParams.get("callbackURL")).toBe("/again");
  });
});
