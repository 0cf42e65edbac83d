import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { lastMail, PASSWORD, signUpVerified, uniqueEmail } from "../helpers/test-users";
import { atClockOffset, AUTH, currentUser, HOUR, location, mailsTo, pathOf, rowsOfUser, signIn, signUp, userRowById } from "./auth-kit";

const NEW_PASSWORD = "a-brand-new-password";

describe("account management", () => {
  let server: TestServer;
  /** REQUIRE_EMAIL_VERIFICATION=false, so an unverified user can hold a session. */
  let relaxed: TestServer;
  beforeAll(async () => {
    [server, relaxed] = await Promise.all([startTestServer(), startTestServer({ env: { REQUIRE_EMAIL_VERIFICATION: "false" } })]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), relaxed?.close()]);
  });

  describe("change password", () => {
    it("refuses a wrong current password with 'Invalid password' and a short new one", async () => {
      const { session, email } = await signUpVerified(server);
      const wrong = await session.request(`${AUTH}/change-password`, { body: { currentPassword: "not-my-password", newPassword: NEW_PASSWORD } });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ code: "INVALID_PASSWORD", message: "Invalid password" });
      const short = await session.request(`${AUTH}/change-password`, { body: { currentPassword: PASSWORD, newPassword: "short" } });
      expect(short.status).toBe(400);
      expect(short.body.message).toBe("Password too short");
      expect((await signIn(server, email, PASSWORD)).response.status).toBe(200);
    });

    it("with revokeOtherSessions, signs out the other browsers on their next request and keeps this one", async () => {
      const { session: here, email } = await signUpVerified(server);
      const there = (await signIn(server, email, PASSWORD)).session;
      expect(await currentUser(there)).not.toBeNull();

      const changed = await here.request(`${AUTH}/change-password`, {
        body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, revokeOtherSessions: true },
      });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body.token).toEqual(expect.any(String));

      expect(await currentUser(there)).toBeNull();
      expect((await there.query("project.list")).error?.code).toBe("UNAUTHORIZED");
      expect((await currentUser(here))?.email).toBe(email.toLowerCase());
      expect((await signIn(server, email, PASSWORD)).response.status).toBe(401);
      expect((await signIn(server, email, NEW_PASSWORD)).response.status).toBe(200);
    });

    it("without revokeOtherSessions, leaves the other sessions alone", async () => {
      const { session: here, email } = await signUpVerified(server);
      const there = (await signIn(server, email, PASSWORD)).session;
      const changed = await here.request(`${AUTH}/change-password`, { body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } });
      expect(changed.status).toBe(200);
      expect(changed.body.token).toBeNull();
      expect(await currentUser(there)).not.toBeNull();
    });
  });

  describe("change email", () => {
    it("refuses the current address ('Email is the same'), in any case", async () => {
      const { session, email } = await signUpVerified(server);
      for (const newEmail of [email, email.toUpperCase()]) {
        const response = await session.request(`${AUTH}/change-email`, { body: { newEmail } });
        expect(response.status).toBe(400);
        expect(response.body.message).toBe("Email is the same");
      }
    });

    it("for a verified user, confirms with the current address first and changes only after both links", async () => {
      const { session, email, userId } = await signUpVerified(server);
      const newEmail = uniqueEmail("moved");
      const requested = await session.request(`${AUTH}/change-email`, { body: { newEmail: newEmail.toUpperCase(), callbackURL: "/settings" } });
      expect(requested.status, requested.text).toBe(200);
      expect(requested.body).toEqual({ status: true });

      const confirmation = lastMail(server, email, "change-email");
      expect(confirmation.text).toContain(newEmail.toLowerCase());
      expect(mailsTo(server, newEmail)).toHaveLength(0);
      expect((await userRowById(server, userId)).email).toBe(email.toLowerCase());

      const confirmed = await session.request(pathOf(confirmation.actionUrl));
      expect(confirmed.status).toBe(302);
      expect(location(server, confirmed).pathname).toBe("/settings");
      expect((await userRowById(server, userId)).email).toBe(email.toLowerCase());

      const verification = lastMail(server, newEmail, "verification");
      const verified = await session.request(pathOf(verification.actionUrl));
      expect(verified.status).toBe(302);
      expect(await userRowById(server, userId)).toMatchObject({ email: newEmail.toLowerCase(), emailVerified: true });
      expect((await currentUser(session))?.email).toBe(newEmail.toLowerCase());
      expect((await signIn(server, newEmail, PASSWORD)).response.status).toBe(200);
      expect((await signIn(server, email, PASSWORD)).response.status).toBe(401);
    });

    it("for an unverified user, changes the address at once and mails a verification link to the new one", async () => {
      const { session, email } = await signUp(relaxed);
      const userId = (await currentUser(session))!.id;
      const newEmail = uniqueEmail("fresh");
      const response = await session.request(`${AUTH}/change-email`, { body: { newEmail } });
      expect(response.status, response.text).toBe(200);
      expect(await userRowById(relaxed, userId)).toMatchObject({ email: newEmail, emailVerified: false });
      expect((await currentUser(session))?.email).toBe(newEmail);
      expect(mailsTo(relaxed, email, "change-email")).toHaveLength(0);

      const link = lastMail(relaxed, newEmail, "verification");
      expect((await session.request(pathOf(link.actionUrl))).status).toBe(302);
      expect(await userRowById(relaxed, userId)).toMatchObject({ email: newEmail, emailVerified: true });
    });

    it('rejects an address that belongs to someone else with "Couldn\'t update your email"', async () => {
      const taken = await signUpVerified(server);
      const { session, email, userId } = await signUpVerified(server);
      const mailsBefore = server.mailer.outbox().length;
      const response = await session.request(`${AUTH}/change-email`, { body: { newEmail: taken.email.toUpperCase() } });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe("Couldn't update your email");
      expect((await userRowById(server, userId)).email).toBe(email.toLowerCase());
      expect(server.mailer.outbox().length).toBe(mailsBefore);

      const pending = await signUp(relaxed);
      const pendingId = (await currentUser(pending.session))!.id;
      const other = await signUp(relaxed);
      const otherMails = mailsTo(relaxed, other.email).length;
      const unverified = await pending.session.request(`${AUTH}/change-email`, { body: { newEmail: other.email } });
      expect(unverified.status).toBe(400);
      expect((await userRowById(relaxed, pendingId)).email).toBe(pending.email);
      expect(mailsTo(relaxed, other.email)).toHaveLength(otherMails);
    });
  });

  describe("delete account", () => {
    it("with the right password, deletes the user, sessions and accounts at once (spec §5), without a mail", async () => {
      const { session, email, userId } = await signUpVerified(server);
      const other = (await signIn(server, email, PASSWORD)).session;
      // The verification link signed the first browser in; the second signed in with the password.
      expect(await rowsOfUser(server, userId)).toEqual({ users: 1, sessions: 2, accounts: 1 });

      const deleted = await session.request(`${AUTH}/delete-user`, { body: { password: PASSWORD, callbackURL: "/goodbye" } });
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body).toEqual({ success: true, message: "User deleted" });
      expect(mailsTo(server, email, "delete-account")).toHaveLength(0);
      expect(await rowsOfUser(server, userId)).toEqual({ users: 0, sessions: 0, accounts: 0 });
      expect(await currentUser(session)).toBeNull();
      expect(await currentUser(other)).toBeNull();
      expect((await signIn(server, email, PASSWORD)).response.status).toBe(401);
    });

    it("without a password, mails a 32-character link that deletes the user even when opened signed out", async () => {
      const { session, email, userId } = await signUpVerified(server);
      const other = (await signIn(server, email, PASSWORD)).session;
      const requested = await session.request(`${AUTH}/delete-user`, { body: { callbackURL: "/goodbye" } });
      expect(requested.status, requested.text).toBe(200);
      expect(requested.body).toEqual({ success: true, message: "Verification email sent" });
      expect((await rowsOfUser(server, userId)).users).toBe(1);

      const link = new URL(lastMail(server, email, "delete-account").actionUrl);
      expect(link.pathname).toBe(`${AUTH}/delete-user/callback`);
      expect(link.searchParams.get("token")).toMatch(/^[a-z0-9]{32}$/);

      // Someone else's session cannot use (or spend) the link.
      const stranger = await signUpVerified(server);
      expect((await stranger.session.request(pathOf(link.href))).status).toBe(404);
      expect((await rowsOfUser(server, userId)).users).toBe(1);
      // A forged token deletes nothing.
      const forged = new URL(link.href);
      forged.searchParams.set("token", "0".repeat(32));
      expect((await new HttpSession(server.url).request(pathOf(forged.href))).status).toBe(404);

      // Opened in a browser that is not signed in (a phone's mail app): it works.
      const anonymous = new HttpSession(server.url);
      const opened = await anonymous.request(pathOf(link.href));
      expect(opened.status, opened.text).toBe(302);
      expect(location(server, opened).pathname).toBe("/goodbye");
      expect(await rowsOfUser(server, userId)).toEqual({ users: 0, sessions: 0, accounts: 0 });
      expect(await currentUser(session)).toBeNull();
      expect(await currentUser(other)).toBeNull();
      expect((await signIn(server, email, PASSWORD)).response.status).toBe(401);
      expect((await stranger.session.request(`${AUTH}/get-session`)).body.user.id).toBe(stranger.userId);
      // One use only.
      expect((await anonymous.request(pathOf(link.href))).status).toBe(404);
    });

    it("refuses a wrong password and sends nothing", async () => {
      const { session, email, userId } = await signUpVerified(server);
      const response = await session.request(`${AUTH}/delete-user`, { body: { password: "not-my-password" } });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe("Invalid password");
      expect(mailsTo(server, email, "delete-account")).toHaveLength(0);
      expect((await rowsOfUser(server, userId)).users).toBe(1);
    });

    it("without a password on a fresh session, mails a token that POST /delete-user accepts once", async () => {
      const { session, email, userId } = await signUpVerified(server);
      const requested = await session.request(`${AUTH}/delete-user`, { body: {} });
      expect(requested.status, requested.text).toBe(200);
      expect(requested.body.message).toBe("Verification email sent");
      const token = new URL(lastMail(server, email, "delete-account").actionUrl).searchParams.get("token");

      const wrongToken = await session.request(`${AUTH}/delete-user`, { body: { token: "0".repeat(32) } });
      expect(wrongToken.status).toBe(404);
      expect((await rowsOfUser(server, userId)).users).toBe(1);

      const deleted = await session.request(`${AUTH}/delete-user`, { body: { token } });
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body).toEqual({ success: true, message: "User deleted" });
      expect(await rowsOfUser(server, userId)).toEqual({ users: 0, sessions: 0, accounts: 0 });
    });

    it("without a password on a stale session, answers 'Session expired. Re-authenticate to perform this action.'", async () => {
      const { session, email } = await signUpVerified(server);
      // freshAge is 24 h; the session itself lives 30 days.
      await atClockOffset(25 * HOUR, async () => {
        const stale = await session.request(`${AUTH}/delete-user`, { body: {} });
        expect(stale.status).toBe(400);
        expect(stale.body).toMatchObject({ code: "SESSION_EXPIRED", message: "Session expired. Re-authenticate to perform this action." });
        expect(mailsTo(server, email, "delete-account")).toHaveLength(0);
        const withPassword = await session.request(`${AUTH}/delete-user`, { body: { password: PASSWORD } });
        expect(withPassword.status).toBe(200);
        expect(withPassword.body.message).toBe("User deleted");
      });
      expect(mailsTo(server, email, "delete-account")).toHaveLength(0);
    });
  });

  describe("sessions", () => {
    async function threeBrowsers() {
      const first = await signUpVerified(server);
      const second = await signIn(server, first.email, PASSWORD);
      const third = await signIn(server, first.email, PASSWORD);
      return { user: first, a: first.session, b: second.session, bToken: second.response.body.token as string, c: third.session };
    }

    it("lists the user's sessions and revokes one of them", async () => {
      const { a, b, c, bToken, user } = await threeBrowsers();
      const listed = await a.request(`${AUTH}/list-sessions`);
      expect(listed.status).toBe(200);
      expect(listed.body).toHaveLength(3);
      expect(listed.body.every((row: { userId: string }) => row.userId === user.userId)).toBe(true);

      const revoked = await a.request(`${AUTH}/revoke-session`, { body: { token: bToken } });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ status: true });
      expect(await currentUser(b)).toBeNull();
      expect(await currentUser(a)).not.toBeNull();
      expect(await currentUser(c)).not.toBeNull();
      expect((await a.request(`${AUTH}/list-sessions`)).body).toHaveLength(2);
    });

    it("does not let another user revoke someone's session", async () => {
      const { b, bToken } = await threeBrowsers();
      const stranger = await signUpVerified(server);
      const attempt = await stranger.session.request(`${AUTH}/revoke-session`, { body: { token: bToken } });
      // Spec §8: "Session not found", the same answer as for a token that names no session.
      expect(attempt.status).toBe(400);
      expect(attempt.body).toMatchObject({ code: "SESSION_NOT_FOUND", message: "Session not found" });
      expect(await currentUser(b)).not.toBeNull();
      const unknown = await stranger.session.request(`${AUTH}/revoke-session`, { body: { token: "no-such-session-token" } });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ code: "SESSION_NOT_FOUND", message: "Session not found" });
    });

    it("revokes the other sessions, keeping the current one", async () => {
      const { a, b, c } = await threeBrowsers();
      const response = await a.request(`${AUTH}/revoke-other-sessions`, { method: "POST" });
      expect(response.status).toBe(200);
      expect(await currentUser(b)).toBeNull();
      expect(await currentUser(c)).toBeNull();
      expect(await currentUser(a)).not.toBeNull();
    });

    it("revokes every session, the current one included", async () => {
      const { a, b, c, user } = await threeBrowsers();
      const response = await a.request(`${AUTH}/revoke-sessions`, { method: "POST" });
      expect(response.status).toBe(200);
      for (const browser of [a, b, c]) expect(await currentUser(browser)).toBeNull();
      expect((await rowsOfUser(server, user.userId)).sessions).toBe(0);
    });

    it("signs out: the session row is deleted and the next request is anonymous", async () => {
      const { a, b, user } = await threeBrowsers();
      const cookie = a.cookieHeader();
      const out = await a.request(`${AUTH}/sign-out`, { method: "POST" });
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ success: true });
      // Even a copy of the old cookie no longer works.
      const replay = await new HttpSession(server.url).request(`${AUTH}/get-session`, { headers: { cookie } });
      expect(replay.body).toBeNull();
      expect((await rowsOfUser(server, user.userId)).sessions).toBe(2);
      expect(await currentUser(b)).not.toBeNull();
    });
  });

  describe("linked accounts", () => {
    it("lists the credential account without secrets and refuses to unlink the last one", async () => {
      const { session, userId } = await signUpVerified(server);
      const accounts = await session.request(`${AUTH}/list-accounts`);
      expect(accounts.status).toBe(200);
      expect(accounts.body).toHaveLength(1);
      expect(accounts.body[0]).toMatchObject({ providerId: "credential", accountId: userId });
      expect(accounts.text).not.toMatch(/password|accessToken|refreshToken/);

      // Spec §7: { providerId, accountId? } with the provider's account id (list-accounts' `accountId`).
      const unlink = await session.request(`${AUTH}/unlink-account`, { body: { providerId: "credential", accountId: accounts.body[0].accountId } });
      expect(unlink.status).toBe(400);
      expect(unlink.body).toMatchObject({ code: "FAILED_TO_UNLINK_LAST_ACCOUNT", message: "You can't unlink your last account" });
      expect((await rowsOfUser(server, userId)).accounts).toBe(1);
    });

    it("answers 401 to account actions without a session", async () => {
      const anonymous = new HttpSession(server.url);
      expect((await anonymous.request(`${AUTH}/list-accounts`)).status).toBe(401);
      expect((await anonymous.request(`${AUTH}/change-password`, { body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } })).status).toBe(401);
      expect((await anonymous.request(`${AUTH}/change-email`, { body: { newEmail: uniqueEmail() } })).status).toBe(401);
      expect((await anonymous.request(`${AUTH}/delete-user`, { body: {} })).status).toBe(401);
      expect((await anonymous.request(`${AUTH}/unlink-account`, { body: { accountId: "any" } })).status).toBe(401);
    });
  });
});
