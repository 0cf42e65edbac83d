/**
 * Profile pictures only from known provider hosts (security hardening, item 14).
 * Battery: update-user refuses http://, unknown hosts and "" with 400 and the shared message and
 * keeps the old picture; accepts a known https host and null; sign-up refuses a bad picture before
 * creating anyone; a social profile whose picture is on an unknown host signs in with no picture,
 * one on a known host keeps it; every response's CSP img-src lists only 'self', data: and the
 * provider hosts.
 */
import { eq } from "drizzle-orm";
import { OAuth2Server, type MutableResponse, type MutableToken } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AVATAR_IMAGE_MESSAGE } from "../../src/shared/avatar";
import * as schema from "../../src/server/db/schema/index";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { signUpVerified, uniqueEmail } from "../helpers/test-users";
import { AUTH, currentUser } from "./auth-kit";

const GITHUB_AVATAR = "https://avatars.githubusercontent.com/u/9919?v=4";

describe("profile pictures", () => {
  let oidc: OAuth2Server;
  let server: TestServer;
  let identity: Record<string, unknown> = {};

  beforeAll(async () => {
    oidc = new OAuth2Server();
    await oidc.issuer.keys.generate("RS256");
    await oidc.start(0, "127.0.0.1");
    oidc.service.on("beforeTokenSigning", (token: MutableToken) => Object.assign(token.payload, identity));
    oidc.service.on("beforeUserinfo", (response: MutableResponse) => {
      response.body = { ...identity };
    });
    server = await startTestServer({
      env: {
        GOOGLE_CLIENT_ID: "faultline-test-client",
        GOOGLE_CLIENT_SECRET: "google-test-secret",
        GOOGLE_DISCOVERY_URL: `${oidc.issuer.url}/.well-known/openid-configuration`,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await oidc?.stop();
  });

  const storedImage = async (userId: string) =>
    (await server.database.db.select({ image: schema.user.image }).from(schema.user).where(eq(schema.user.id, userId)))[0]?.image;

  it("update-user refuses pictures from http:// or unknown hosts with 400, and keeps the old one", async () => {
    const { session, userId } = await signUpVerified(server);
    const ok = await session.request(`${AUTH}/update-user`, { body: { image: GITHUB_AVATAR } });
    expect(ok.status, ok.text).toBe(200);
    expect(await storedImage(userId)).toBe(GITHUB_AVATAR);

    for (const image of ["http://avatars.githubusercontent.com/u/1", "https://tracker.example/pixel.gif", "javascript:alert(1)", ""]) {
      const refused = await session.request(`${AUTH}/update-user`, { body: { image, name: "Renamed" } });
      expect(refused.status, image).toBe(400);
      expect(refused.body).toMatchObject({ code: "INVALID_IMAGE_URL", message: AVATAR_IMAGE_MESSAGE });
    }
    expect(await storedImage(userId)).toBe(GITHUB_AVATAR);
    expect((await currentUser(session))?.name).toBe("Test User");

    const cleared = await session.request(`${AUTH}/update-user`, { body: { image: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(await storedImage(userId)).toBeNull();
  });

  it("sign-up refuses an unknown picture host before creating the user", async () => {
    const email = uniqueEmail("avatar");
    const response = await new HttpSession(server.url).request(`${AUTH}/sign-up/email`, {
      body: { name: "Pat Pixel", email, password: "correct-horse-battery", image: "https://tracker.example/pixel.gif" },
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(AVATAR_IMAGE_MESSAGE);
    expect(await server.database.db.select().from(schema.user).where(eq(schema.user.email, email))).toHaveLength(0);
  });

  async function signInWithGoogle(picture: string) {
    identity = { sub: `google-${Math.random().toString(36).slice(2)}`, email: uniqueEmail("pic"), email_verified: true, name: "Gus Google", picture };
    const browser = new HttpSession(server.url);
    const start = await browser.request(`${AUTH}/sign-in/social`, { body: { provider: "google", callbackURL: "/dashboard" } });
    const atProvider = await fetch(start.body.url, { redirect: "manual" });
    const callback = new URL(atProvider.headers.get("location") as string);
    const done = await browser.request(callback.pathname + callback.search);
    expect(done.status, done.text).toBe(302);
    const user = await currentUser(browser);
    expect(user).not.toBeNull();
    return user!.id;
  }

  it("drops a social profile's picture on an unknown host, and keeps one on the provider's host", async () => {
    expect(await storedImage(await signInWithGoogle("https://tracker.example/u/1.png"))).toBeNull();
    expect(await storedImage(await signInWithGoogle("http://lh3.googleusercontent.com/a/x"))).toBeNull();
    const google = "https://lh3.googleusercontent.com/a/ACg8ocJ=s96-c";
    expect(await storedImage(await signInWithGoogle(google))).toBe(google);
  });

  it("limits the CSP img-src to 'self', data: and the provider hosts", async () => {
    const response = await fetch(`${server.url}${AUTH}/ok`);
    const csp = response.headers.get("content-security-policy") ?? "";
    const imgSrc = csp
      .split(";")
      .map((directive) => directive.trim())
      .find((directive) => directive.startsWith("img-src "));
    const sources = imgSrc?.split(/\s+/).slice(1) ?? [];
    expect(sources.slice(0, 2)).toEqual(["'self'", "data:"]);
    expect(sources).toContain("https://avatars.githubusercontent.com");
    expect(sources).toContain("https://*.googleusercontent.com");
    expect(sources).not.toContain("https:");
    expect(sources.slice(2).every((source) => /^https:\/\/(\*\.)?[a-z0-9.-]+$/.test(source))).toBe(true);
  });
});
