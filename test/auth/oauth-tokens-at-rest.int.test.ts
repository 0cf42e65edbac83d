/**
 * OAuth tokens of linked accounts are sealed at rest (security hardening, item 13).
 * Battery: after a Google (OIDC stand-in) sign-in the accounts row holds no plaintext token, only
 * sealed values; get-access-token still answers the provider's real tokens; refresh-token sends
 * the real refresh token to the provider and stores the new ones sealed; a sealed token copied to
 * another user's row does not open there; rows written in plaintext before sealing keep working
 * and the start-up pass seals them once (idempotent); bulk writes and narrowed or joined reads
 * through the adapter seal and open too.
 */
import { eq } from "drizzle-orm";
import { OAuth2Server, type MutableResponse, type MutableToken } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealLegacyOAuthTokens } from "../../src/server/auth/legacy-oauth-tokens";
import * as schema from "../../src/server/db/schema/index";
import { parseKeyring } from "../../src/server/secrets/keyring";
import { createSecretBox, isSealed } from "../../src/server/secrets/secret-box";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, TEST_SECRETS_KEY, type TestServer } from "../helpers/test-server";
import { uniqueEmail } from "../helpers/test-users";
import { AUTH, currentUser } from "./auth-kit";

interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  id_token: string;
}

describe("OAuth tokens at rest", () => {
  let oidc: OAuth2Server;
  let server: TestServer;
  /** What the provider's token endpoint answered last, and the refresh token it was sent. */
  let issued: IssuedTokens;
  let refreshSent: string | undefined;
  /** The person the provider signs in next. */
  let identity: Record<string, unknown> = {};

  beforeAll(async () => {
    oidc = new OAuth2Server();
    await oidc.issuer.keys.generate("RS256");
    await oidc.start(0, "127.0.0.1");
    oidc.service.on("beforeTokenSigning", (token: MutableToken) => {
      Object.assign(token.payload, identity);
    });
    oidc.service.on("beforeUserinfo", (response: MutableResponse) => {
      response.body = { ...identity };
    });
    oidc.service.on("beforeResponse", (response: MutableResponse, req: { body?: Record<string, string> }) => {
      issued = response.body as unknown as IssuedTokens;
      refreshSent = req.body?.refresh_token;
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

  async function signInWithGoogle() {
    identity = { sub: `google-${Math.random().toString(36).slice(2)}`, email: uniqueEmail("sealed"), email_verified: true, name: "Sam Sealed" };
    const browser = new HttpSession(server.url);
    const start = await browser.request(`${AUTH}/sign-in/social`, { body: { provider: "google", callbackURL: "/dashboard" } });
    expect(start.status, start.text).toBe(200);
    const atProvider = await fetch(start.body.url, { redirect: "manual" });
    const callback = new URL(atProvider.headers.get("location") as string);
    const done = await browser.request(callback.pathname + callback.search);
    expect(done.status, done.text).toBe(302);
    const user = await currentUser(browser);
    expect(user).not.toBeNull();
    return { browser, userId: user!.id, tokens: issued };
  }

  /** better-auth 1.7 picks the account by its row id (`accountId`), not by provider. */
  const tokenRequest = async (browser: HttpSession, path: "get-access-token" | "refresh-token", userId: string) =>
    browser.request(`${AUTH}/${path}`, { body: { accountId: (await googleRow(userId)).id } });

  const googleRow = async (userId: string) => {
    const [row] = await server.database.db.select().from(schema.account).where(eq(schema.account.userId, userId));
    return row!;
  };

  it("stores only sealed tokens, and get-access-token still answers the provider's tokens", async () => {
    const { browser, userId, tokens } = await signInWithGoogle();
    const row = await googleRow(userId);
    expect(row.providerId).toBe("google");
    for (const [column, plaintext] of [
      ["accessToken", tokens.access_token],
      ["refreshToken", tokens.refresh_token],
      ["idToken", tokens.id_token],
    ] as const) {
      const stored = row[column]!;
      expect(isSealed(stored), `${column} is sealed`).toBe(true);
      expect(stored).not.toContain(plaintext);
      expect(stored).not.toContain(plaintext.split(".")[1] ?? plaintext);
    }

    const answer = await tokenRequest(browser, "get-access-token", userId);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.accessToken).toBe(tokens.access_token);
    expect(answer.body.idToken).toBe(tokens.id_token);
  });

  it("refreshes with the real refresh token and seals what comes back", async () => {
    const { browser, userId, tokens } = await signInWithGoogle();
    const refreshed = await tokenRequest(browser, "refresh-token", userId);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshSent).toBe(tokens.refresh_token);
    expect(refreshed.body.accessToken).toBe(issued.access_token);
    const rotated = issued.refresh_token;
    expect(rotated).not.toBe(tokens.refresh_token);

    const row = await googleRow(userId);
    expect(isSealed(row.accessToken!)).toBe(true);
    expect(isSealed(row.refreshToken!)).toBe(true);
    expect(row.refreshToken).not.toContain(rotated);
    // The next refresh sends the rotated token: what was sealed opens to what the provider issued.
    expect((await tokenRequest(browser, "refresh-token", userId)).status).toBe(200);
    expect(refreshSent).toBe(rotated);
  });

  it("does not open a sealed token copied into another user's row", async () => {
    const victim = await signInWithGoogle();
    const thief = await signInWithGoogle();
    const stolen = await googleRow(victim.userId);
    await server.database.db
      .update(schema.account)
      .set({ accessToken: stolen.accessToken, accessTokenExpiresAt: new Date(Date.now() + 3_600_000), refreshToken: null })
      .where(eq(schema.account.userId, thief.userId));
    const answer = await tokenRequest(thief.browser, "get-access-token", thief.userId);
    // The copy does not open under the thief's id: the token reads as absent (better-auth then
    // answers an empty one), and the victim's token appears nowhere.
    expect(answer.body?.accessToken || null).toBeNull();
    expect(answer.text).not.toContain(victim.tokens.access_token);
    expect(server.logs.some((line) => JSON.stringify(line).includes(victim.tokens.access_token))).toBe(false);
  });

  it("keeps plaintext rows from before sealing working, and seals them once at start-up", async () => {
    const { browser, userId, tokens } = await signInWithGoogle();
    const accountId = (await googleRow(userId)).id;
    // A row as the previous release wrote it.
    await server.database.db
      .update(schema.account)
      .set({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token, idToken: tokens.id_token })
      .where(eq(schema.account.id, accountId));
    const before = await tokenRequest(browser, "get-access-token", userId);
    expect(before.status, before.text).toBe(200);
    expect(before.body.accessToken).toBe(tokens.access_token);

    const box = createSecretBox(parseKeyring(TEST_SECRETS_KEY));
    expect(await sealLegacyOAuthTokens(server.database.db, box)).toBe(1);
    const row = await googleRow(userId);
    for (const column of ["accessToken", "refreshToken", "idToken"] as const) expect(isSealed(row[column]!), column).toBe(true);
    expect(await sealLegacyOAuthTokens(server.database.db, box)).toBe(0);
    const after = await tokenRequest(browser, "get-access-token", userId);
    expect(after.body.accessToken).toBe(tokens.access_token);
    expect(after.body.idToken).toBe(tokens.id_token);
  });

  it("seals bulk writes row by row and opens narrowed reads, through better-auth's own adapter", async () => {
    const { userId } = await signInWithGoogle();
    const { adapter } = await server.auth.$context;
    const where = [{ field: "userId", value: userId }];
    expect(await adapter.updateMany({ model: "account", where, update: { accessToken: "bulk-plain" } })).toBe(1);
    const row = await googleRow(userId);
    expect(isSealed(row.accessToken!)).toBe(true);
    expect(row.accessToken).not.toContain("bulk-plain");

    const narrowed = await adapter.findOne<Record<string, unknown>>({ model: "account", where, select: ["accessToken"] });
    expect(narrowed).toEqual({ accessToken: "bulk-plain" });
    const joined = await adapter.findOne<{ account: Record<string, unknown>[] }>({
      model: "user",
      where: [{ field: "id", value: userId }],
      join: { account: true },
    });
    expect(joined?.account.map((account) => account.accessToken)).toEqual(["bulk-plain"]);
  });
});
