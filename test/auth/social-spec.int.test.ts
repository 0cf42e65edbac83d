/**
 * Issue 14, items 1, 2, 4, 6 and 7 on the social flow, against a local OpenID provider standing
 * in for Google (GOOGLE_DISCOVERY_URL): who may be linked to an existing account, unverified social
 * users, the spec's account selection, the 10-minute state and the spec's redirect codes.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema/index";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { PASSWORD, signUpVerified } from "../helpers/test-users";
import { atClockOffset, AUTH, currentUser, location, mailsTo, MINUTE, parseSetCookie, signIn } from "./auth-kit";
import { atProvider, googleDance, startGoogleFlow, startOidcStandIn, type OidcStandIn } from "./oidc-stand-in";

describe("social sign-in as the spec says (issue 14)", () => {
  let oidc: OidcStandIn;
  let server: TestServer;

  beforeAll(async () => {
    oidc = await startOidcStandIn();
    // GitHub too: a provider without ID-token sign-in.
    server = await startTestServer({ env: { ...oidc.env, GITHUB_CLIENT_ID: "github-test-client", GITHUB_CLIENT_SECRET: "github-test-secret" } });
  });
  afterAll(async () => {
    await server?.close();
    await oidc?.stop();
  });

  const googleAccounts = (userId: string) =>
    server.database.db
      .select()
      .from(schema.account)
      .where(and(eq(schema.account.userId, userId), eq(schema.account.providerId, "google")));

  describe("item 1: linking to an existing password account", () => {
    it("trusts Google's word on an address only for Google's own endpoints", async () => {
      const google = await startTestServer({ env: { GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "secret" } });
      try {
        expect((await google.auth.$context).trustedProviders).toContain("google");
      } finally {
        await google.close();
      }
      expect((await server.auth.$context).trustedProviders).not.toContain("google");
    });

    it("refuses to link a custom issuer's identity that says email_verified: false (no takeover)", async () => {
      const victim = await signUpVerified(server);
      oidc.next({ email: victim.email, email_verified: false });
      const attacker = new HttpSession(server.url);
      const { done } = await googleDance(attacker);
      expect(done.status, done.text).toBe(302);
      const target = location(server, done);
      expect(target.pathname).toBe(`${AUTH}/error`);
      expect(target.searchParams.get("error")).toBe("account_not_linked");
      expect(await currentUser(attacker)).toBeNull();
      expect(await googleAccounts(victim.userId)).toHaveLength(0);
      expect((await signIn(server, victim.email, PASSWORD)).response.status).toBe(200);
    });

    it("links a custom issuer's identity that says email_verified: true", async () => {
      const existing = await signUpVerified(server);
      const person = oidc.next({ email: existing.email, email_verified: true });
      const browser = new HttpSession(server.url);
      const { done } = await googleDance(browser);
      expect(location(server, done).pathname).toBe("/dashboard");
      expect((await currentUser(browser))?.id).toBe(existing.userId);
      expect((await googleAccounts(existing.userId)).map((row) => row.accountId)).toEqual([person.sub]);
    });
  });

  describe("item 2: unverified social users while verification is required", () => {
    it("gives no session to a first sign-in whose provider reports the email unverified, and mails a link", async () => {
      const person = oidc.next({ email_verified: false });
      const browser = new HttpSession(server.url);
      const { done } = await googleDance(browser);
      expect(done.status).toBe(302);
      const target = location(server, done);
      expect(target.pathname).toBe(`${AUTH}/error`);
      expect(target.searchParams.get("error")).toBe("email_not_verified");
      expect(done.headers.getSetCookie().some((line) => line.startsWith("better-auth.session_token=") && !/max-age=0/i.test(line))).toBe(false);
      expect(await currentUser(browser)).toBeNull();
      expect(mailsTo(server, person.email, "verification")).toHaveLength(1);

      // The same as a password user in that state; once verified, Google signs them in.
      const link = new URL(mailsTo(server, person.email, "verification")[0].actionUrl);
      await new HttpSession(server.url).request(link.pathname + link.search);
      const again = new HttpSession(server.url);
      const second = await googleDance(again);
      expect(location(server, second.done).pathname).toBe("/dashboard");
      expect((await currentUser(again))?.email).toBe(person.email);
    });

    it("lets them in when verification is not required", async () => {
      const relaxed = await startTestServer({ env: { ...oidc.env, REQUIRE_EMAIL_VERIFICATION: "false" } });
      try {
        oidc.next({ email_verified: false });
        const browser = new HttpSession(relaxed.url);
        const { done } = await googleDance(browser);
        expect(location(relaxed, done).pathname).toBe("/dashboard");
        expect(await currentUser(browser)).not.toBeNull();
      } finally {
        await relaxed.close();
      }
    });
  });

  describe("item 4: accounts named by { providerId, accountId } (the provider's id)", () => {
    async function linkedUser() {
      const person = oidc.next();
      const browser = new HttpSession(server.url);
      await googleDance(browser);
      const user = (await currentUser(browser))!;
      // A password too, so Google is not the last sign-in method.
      const set = await server.auth.api.setPassword({ body: { newPassword: PASSWORD }, headers: new Headers({ cookie: browser.cookieHeader() }) });
      expect(set.status).toBe(true);
      return { person, browser, user };
    }

    it("get-access-token and refresh-token answer the spec's shapes", async () => {
      const { person, browser } = await linkedUser();
      const access = await browser.request(`${AUTH}/get-access-token`, { body: { providerId: "google", accountId: person.sub } });
      expect(access.status, access.text).toBe(200);
      expect(access.body).toMatchObject({ tokenType: "Bearer", accessToken: expect.any(String), idToken: expect.any(String) });
      const byProvider = await browser.request(`${AUTH}/get-access-token`, { body: { providerId: "google" } });
      expect(byProvider.body.accessToken).toBe(access.body.accessToken);

      const refreshed = await browser.request(`${AUTH}/refresh-token`, { body: { providerId: "google", accountId: person.sub } });
      expect(refreshed.status, refreshed.text).toBe(200);
      expect(refreshed.body).toMatchObject({ tokenType: "Bearer", accessToken: expect.any(String), refreshToken: expect.any(String) });
      expect(refreshed.body.accessToken).not.toBe(access.body.accessToken);

      const unknown = await browser.request(`${AUTH}/get-access-token`, { body: { providerId: "google", accountId: "someone-else" } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe("Account not found");
    });

    it("POST /account-info with { accountId } answers { user, data }", async () => {
      const { person, browser } = await linkedUser();
      const info = await browser.request(`${AUTH}/account-info`, { body: { accountId: person.sub } });
      expect(info.status, info.text).toBe(200);
      expect(info.body.user).toMatchObject({ email: person.email });
      expect(info.body.data).toMatchObject({ sub: person.sub });
      expect((await new HttpSession(server.url).request(`${AUTH}/account-info`, { body: { accountId: person.sub } })).status).toBe(401);
    });

    it("unlink-account takes the provider's id, and refuses the last method with the spec's message", async () => {
      const { person, browser, user } = await linkedUser();
      const unlinked = await browser.request(`${AUTH}/unlink-account`, { body: { providerId: "google", accountId: person.sub } });
      expect(unlinked.status, unlinked.text).toBe(200);
      expect(unlinked.body).toEqual({ status: true });
      expect(await googleAccounts(user.id)).toHaveLength(0);
      const last = await browser.request(`${AUTH}/unlink-account`, { body: { providerId: "credential", accountId: user.id } });
      expect(last.status).toBe(400);
      expect(last.body.message).toBe("You can't unlink your last account");
    });
  });

  describe("item 6: the OAuth state lives 10 minutes, in the cookie too", () => {
    it("sets the state cookie for 600 s and finishes a sign-in that took 8 minutes at the provider", async () => {
      oidc.next();
      const browser = new HttpSession(server.url);
      const { start, authorize } = await startGoogleFlow(browser);
      const stateCookie = start.headers
        .getSetCookie()
        .map(parseSetCookie)
        .find((cookie) => cookie.name === "better-auth.state");
      expect(stateCookie?.attrs.get("max-age")).toBe("600");
      const callback = await atProvider(authorize);
      const done = await atClockOffset(8 * MINUTE, () => browser.request(callback.pathname + callback.search));
      expect(location(server, done).pathname).toBe("/dashboard");
    });

    it("after 10 minutes the state is gone: please_restart_the_process", async () => {
      oidc.next();
      const browser = new HttpSession(server.url);
      const { authorize } = await startGoogleFlow(browser);
      const callback = await atProvider(authorize);
      const done = await atClockOffset(11 * MINUTE, () => browser.request(callback.pathname + callback.search));
      expect(location(server, done).searchParams.get("error")).toBe("please_restart_the_process");
    });
  });

  describe("item 7: redirect codes and messages", () => {
    it("linking an identity with another address redirects with email_doesn't_match", async () => {
      const owner = await signUpVerified(server);
      oidc.next();
      const { authorize } = await startGoogleFlow(owner.session, `${AUTH}/link-social`, {
        callbackURL: "/settings/account",
        errorCallbackURL: "/settings/account",
      });
      const callback = await atProvider(authorize);
      const done = await owner.session.request(callback.pathname + callback.search);
      expect(done.status).toBe(302);
      expect(location(server, done).searchParams.get("error")).toBe("email_doesn't_match");
    });

    it("a malformed callback redirects with invalid_callback_request instead of a raw 400", async () => {
      const done = await new HttpSession(server.url).request(`${AUTH}/callback/google?code=a&code=b&state[]=x`);
      expect(done.status, done.text).toBe(302);
      const target = location(server, done);
      expect(target.pathname).toBe(`${AUTH}/error`);
      expect(target.searchParams.get("error")).toBe("invalid_callback_request");
    });

    it("an ID token for a provider without ID-token sign-in: 'ID token not supported'", async () => {
      const response = await new HttpSession(server.url).request(`${AUTH}/sign-in/social`, { body: { provider: "github", idToken: { token: "x.y.z" } } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: "ID_TOKEN_NOT_SUPPORTED", message: "ID token not supported" });
    });

    it("the error page is the product's own, with the code and a Return to Application link", async () => {
      const page = await new HttpSession(server.url).request(`${AUTH}/error?error=please_restart_the_process`);
      expect(page.status).toBe(200);
      expect(page.text).toContain("Faultline");
      expect(page.text).toContain("please_restart_the_process");
      expect(page.text).toMatch(/<a [^>]*href="\/"[^>]*>Return to Application<\/a>/);
      expect(page.text).toContain("prefers-color-scheme: dark");
      expect(page.text).not.toMatch(/better-auth\.com|github\.com\/better-auth/i);
    });
  });
});
