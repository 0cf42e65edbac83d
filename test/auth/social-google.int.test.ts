import { and, eq } from "drizzle-orm";
import { OAuth2Server, type MutableResponse, type MutableToken } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema/index";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { PASSWORD, signUpVerified, uniqueEmail } from "../helpers/test-users";
import { AUTH, currentUser, location, signIn } from "./auth-kit";

const CLIENT_ID = "faultline-test-client";

interface Identity {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

/**
 * Google through a local OIDC provider. better-auth 1.7 registers generic OAuth providers as
 * ordinary social providers: the flow starts at /sign-in/social and returns to /callback/google
 * (1.7 has no /sign-in/oauth2 route).
 */
describe("sign-in with Google (OIDC discovery)", () => {
  let oidc: OAuth2Server;
  let server: TestServer;
  let plain: TestServer;
  /** The person the provider signs in next; every token and userinfo answer describes them. */
  let identity: Identity;
  let issuerUrl: string;

  beforeAll(async () => {
    oidc = new OAuth2Server();
    await oidc.issuer.keys.generate("RS256");
    await oidc.start(0, "127.0.0.1");
    issuerUrl = oidc.issuer.url as string;
    oidc.service.on("beforeTokenSigning", (token: MutableToken) => {
      Object.assign(token.payload, identity);
    });
    oidc.service.on("beforeUserinfo", (response: MutableResponse) => {
      response.body = { ...identity };
    });
    [server, plain] = await Promise.all([
      startTestServer({
        env: {
          GOOGLE_CLIENT_ID: CLIENT_ID,
          GOOGLE_CLIENT_SECRET: "google-test-secret",
          GOOGLE_DISCOVERY_URL: `${issuerUrl}/.well-known/openid-configuration`,
          GITHUB_CLIENT_ID: "github-test-client",
          GITHUB_CLIENT_SECRET: "github-test-secret",
        },
      }),
      startTestServer(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), plain?.close()]);
    await oidc?.stop();
  });

  function nextIdentity(overrides: Partial<Identity> = {}): Identity {
    identity = { sub: `google-${Math.random().toString(36).slice(2)}`, email: uniqueEmail("google"), email_verified: true, name: "Grace Google", ...overrides };
    return identity;
  }

  /** The whole redirect dance, as a browser would do it. Returns the final Faultline answer. */
  async function googleDance(browser: HttpSession, body: Record<string, unknown> = { callbackURL: "/dashboard" }) {
    const start = await browser.request(`${AUTH}/sign-in/social`, { body: { provider: "google", ...body } });
    expect(start.status, start.text).toBe(200);
    expect(start.body.redirect).toBe(true);
    const authorize = new URL(start.body.url);
    expect(authorize.origin).toBe(new URL(issuerUrl).origin);
    expect(authorize.searchParams.get("client_id")).toBe(CLIENT_ID);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["openid", "email", "profile"]));

    const atProvider = await fetch(authorize, { redirect: "manual" });
    expect(atProvider.status).toBe(302);
    const callback = new URL(atProvider.headers.get("location") as string);
    expect(callback.pathname).toBe(`${AUTH}/callback/google`);
    expect(callback.searchParams.get("state")).toBe(authorize.searchParams.get("state"));
    const done = await browser.request(callback.pathname + callback.search);
    return { done, callback };
  }

  it("advertises a button per configured provider, Google first, only when configured", async () => {
    const configured = await new HttpSession(server.url).query("config.get");
    expect(configured.data.socialProviders).toEqual([
      { id: "google", name: "Google" },
      { id: "github", name: "GitHub" },
    ]);
    const bare = await new HttpSession(plain.url).query("config.get");
    expect(bare.data.socialProviders).toEqual([]);
    const refused = await new HttpSession(plain.url).request(`${AUTH}/sign-in/social`, { body: { provider: "google", callbackURL: "/dashboard" } });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe("PROVIDER_NOT_FOUND");

    const github = await new HttpSession(server.url).request(`${AUTH}/sign-in/social`, { body: { provider: "github", callbackURL: "/dashboard" } });
    expect(github.status).toBe(200);
    expect(new URL(github.body.url).host).toBe("github.com");
  });

  it("registers a new user with the Google account linked, sends them to the new-user URL, then reuses them", async () => {
    const person = nextIdentity();
    const browser = new HttpSession(server.url);
    const { done } = await googleDance(browser, { callbackURL: "/dashboard", newUserCallbackURL: "/onboarding" });
    expect(done.status, done.text).toBe(302);
    expect(location(server, done).pathname).toBe("/onboarding");
    expect(done.headers.getSetCookie().some((line) => line.startsWith("better-auth.session_token="))).toBe(true);

    const user = await currentUser(browser);
    expect(user).toMatchObject({ email: person.email, emailVerified: true, name: person.name });
    const accounts = await server.database.db.select().from(schema.account).where(eq(schema.account.userId, user!.id));
    expect(accounts.map((row) => [row.providerId, row.accountId])).toEqual([["google", person.sub]]);
    const listed = await browser.request(`${AUTH}/list-accounts`);
    expect(listed.body.map((row: { providerId: string }) => row.providerId)).toEqual(["google"]);

    // The second sign-in finds the same user through the linked account.
    const again = new HttpSession(server.url);
    const second = await googleDance(again, { callbackURL: "/dashboard", newUserCallbackURL: "/onboarding" });
    expect(second.done.status).toBe(302);
    expect(location(server, second.done).pathname).toBe("/dashboard");
    expect((await currentUser(again))?.id).toBe(user!.id);
    const users = await server.database.db.select().from(schema.user).where(eq(schema.user.email, person.email));
    expect(users).toHaveLength(1);
    const googleAccounts = await server.database.db
      .select()
      .from(schema.account)
      .where(and(eq(schema.account.userId, user!.id), eq(schema.account.providerId, "google")));
    expect(googleAccounts).toHaveLength(1);
  });

  it("links Google to an existing email and password user when the issuer vouches for the address", async () => {
    const existing = await signUpVerified(server);
    // A custom issuer is not trusted by name: without email_verified it would not link (social-spec.int.test.ts).
    const person = nextIdentity({ email: existing.email, email_verified: true });
    const browser = new HttpSession(server.url);
    const { done } = await googleDance(browser);
    expect(done.status, done.text).toBe(302);
    expect(location(server, done).pathname).toBe("/dashboard");
    expect((await currentUser(browser))?.id).toBe(existing.userId);

    const listed = await browser.request(`${AUTH}/list-accounts`);
    expect(listed.body.map((row: { providerId: string }) => row.providerId).sort()).toEqual(["credential", "google"]);
    expect((await signIn(server, existing.email, PASSWORD)).response.status).toBe(200);

    // With two accounts one may go; the last one stays.
    const google = listed.body.find((row: { providerId: string }) => row.providerId === "google");
    const credential = listed.body.find((row: { providerId: string }) => row.providerId === "credential");
    expect(google.accountId).toBe(person.sub);
    const unlinked = await browser.request(`${AUTH}/unlink-account`, { body: { providerId: "google", accountId: google.accountId } });
    expect(unlinked.status, unlinked.text).toBe(200);
    const last = await browser.request(`${AUTH}/unlink-account`, { body: { providerId: "credential", accountId: credential.accountId } });
    expect(last.status).toBe(400);
    expect(last.body.message).toBe("You can't unlink your last account");
  });

  it("refuses a callback without the browser's state and a replayed code", async () => {
    nextIdentity();
    const browser = new HttpSession(server.url);
    const start = await browser.request(`${AUTH}/sign-in/social`, { body: { provider: "google", callbackURL: "/dashboard" } });
    const atProvider = await fetch(start.body.url, { redirect: "manual" });
    const callback = new URL(atProvider.headers.get("location") as string);

    // Another browser (no state cookie) cannot finish this flow.
    const thief = new HttpSession(server.url);
    const stolen = await thief.request(callback.pathname + callback.search);
    expect(stolen.status).toBe(302);
    expect(location(server, stolen).pathname).toBe(`${AUTH}/error`);
    expect(location(server, stolen).searchParams.get("error")).toBe("please_restart_the_process");
    expect(await currentUser(thief)).toBeNull();

    const finished = await browser.request(callback.pathname + callback.search);
    expect(location(server, finished).pathname).toBe("/dashboard");
    // The state is consumed: replaying the same callback does not sign anyone in again.
    const replayBrowser = new HttpSession(server.url);
    for (const [name, value] of browser.cookies) if (!name.includes("session")) replayBrowser.cookies.set(name, value);
    const replay = await replayBrowser.request(callback.pathname + callback.search);
    expect(location(server, replay).searchParams.get("error")).toBe("please_restart_the_process");
    expect(await currentUser(replayBrowser)).toBeNull();
  });

  it("shows social errors on the auth error page (escaped, with a link home), and answers the health check", async () => {
    const page = await new HttpSession(server.url).request(
      `${AUTH}/error?error=please_restart_the_process&error_description=${encodeURIComponent("<script>alert(1)</script>")}`,
    );
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.text).toContain("please_restart_the_process");
    expect(page.text).toMatch(/href="\/"/);
    expect(page.text).not.toContain("<script>alert(1)</script>");
    expect(page.text).toContain("&lt;script&gt;");
    const ok = await new HttpSession(server.url).request(`${AUTH}/ok`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true });
  });

  it("refuses a callbackURL outside the trusted origins", async () => {
    const response = await new HttpSession(server.url).request(`${AUTH}/sign-in/social`, {
      body: { provider: "google", callbackURL: "https://evil.example/steal" },
    });
    expect(response.status).toBe(403);
    expect(response.body.message).toBe("Invalid callbackURL");
  });
});
