import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema/index";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, lastMail, PASSWORD, signUpVerified, uniqueEmail } from "../helpers/test-users";
import { AUTH, currentUser, parseSetCookie, signIn, signUp } from "./auth-kit";

const EVIL = "https://evil.example";

/** Battery F: brute force, cookie flags, foreign origins, revocation on the next request. */
describe("authentication security (battery F)", () => {
  /** The default installation (http, no rate limits in NODE_ENV=test). */
  let server: TestServer;
  /** AUTH_RATE_LIMIT=true, as production has it; TRUST_PROXY stays 0 (no proxy in front). */
  let limited: TestServer;
  /** Served behind https (API_URL), reached over plain http by the test. */
  let secure: TestServer;
  const secureOrigin = "https://faultline.example";

  beforeAll(async () => {
    [server, limited, secure] = await Promise.all([
      startTestServer(),
      startTestServer({ env: { AUTH_RATE_LIMIT: "true" } }),
      startTestServer({ env: { API_URL: secureOrigin, REQUIRE_EMAIL_VERIFICATION: "false" } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), limited?.close(), secure?.close()]);
  });

  describe("brute force", () => {
    it("answers 429 after 5 wrong passwords a minute, even when every attempt claims another X-Forwarded-For", async () => {
      const { email } = await signUpVerified(limited);
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let attempt = 1; attempt <= 8; attempt++) {
        const { response } = await signIn(limited, email, `wrong-password-${attempt}`, {
          headers: { "x-forwarded-for": `203.0.113.${attempt}`, "x-real-ip": `198.51.100.${attempt}` },
        });
        statuses.push(response.status);
        if (response.status === 429) retryAfter ??= response.headers.get("x-retry-after");
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);

      // The right password does not get through the closed window either.
      const right = await signIn(limited, email, PASSWORD, { headers: { "x-forwarded-for": "192.0.2.77" } });
      expect(right.response.status).toBe(429);
      expect(right.response.body.message).toBe("Too many requests. Please try again later.");

      // One bucket, keyed on the socket address, not on any client-supplied header.
      const buckets = await limited.database.db.select().from(schema.rateLimit);
      const signInBuckets = buckets.filter((row) => row.key.includes("/sign-in/email"));
      expect(signInBuckets).toHaveLength(1);
      expect(signInBuckets[0].key).toContain("127.0.0.1");
      expect(buckets.some((row) => /203\.0\.113|198\.51\.100|192\.0\.2/.test(row.key))).toBe(false);
    });

    it("ignores a client copy of the internal client-IP header", async () => {
      const statuses: number[] = [];
      for (let attempt = 1; attempt <= 5; attempt++) {
        const response = await new HttpSession(limited.url).request(`${AUTH}/request-password-reset`, {
          body: { email: uniqueEmail("probe") },
          headers: { "x-faultline-client-ip": `203.0.113.${attempt}`, "x-forwarded-for": `203.0.113.${attempt}` },
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    });
  });

  describe("cookies", () => {
    function sessionCookie(lines: string[], name: string) {
      const line = lines.find((entry) => entry.startsWith(`${name}=`));
      expect(line, `no ${name} in ${JSON.stringify(lines)}`).toBeDefined();
      return parseSetCookie(line!);
    }

    it("behind https: __Secure- session cookie with HttpOnly, Secure and SameSite=Lax", async () => {
      const { email, response: signedUp } = await signUp(secure, { origin: secureOrigin });
      expect(signedUp.status, signedUp.text).toBe(200);
      const { session, response } = await signIn(secure, email, PASSWORD, { origin: secureOrigin });
      expect(response.status, response.text).toBe(200);
      const cookie = sessionCookie(response.headers.getSetCookie(), "__Secure-better-auth.session_token");
      expect(cookie.attrs.has("httponly")).toBe(true);
      expect(cookie.attrs.has("secure")).toBe(true);
      expect(cookie.attrs.get("samesite")?.toLowerCase()).toBe("lax");
      expect(cookie.attrs.get("path")).toBe("/");
      expect(response.headers.get("strict-transport-security")).toContain("max-age=");
      expect((await currentUser(session))?.email).toBe(email);
      // No cookie without the prefix is accepted as a session.
      const unprefixed = new HttpSession(secure.url, secureOrigin);
      unprefixed.cookies.set("better-auth.session_token", cookie.value);
      expect(await currentUser(unprefixed)).toBeNull();
    });

    it("over http: HttpOnly and SameSite=Lax, without Secure", async () => {
      const { email } = await signUpVerified(server);
      const { response } = await signIn(server, email, PASSWORD);
      const cookie = sessionCookie(response.headers.getSetCookie(), "better-auth.session_token");
      expect(cookie.attrs.has("httponly")).toBe(true);
      expect(cookie.attrs.get("samesite")?.toLowerCase()).toBe("lax");
      expect(cookie.attrs.has("secure")).toBe(false);
    });
  });

  describe("foreign Origin", () => {
    it("refuses tRPC and REST writes from another origin, creating nothing", async () => {
      const { session } = await signUpVerified(server);
      const org = await createOrganization(session, "Guarded");
      const input = { name: "Planted", platform: "NODE_JS" };

      const viaTrpc = await session.mutation("project.create", input, { origin: EVIL });
      expect(viaTrpc.status).toBe(403);
      const viaRest = await session.request(`/api/v1/organizations/${org.id}/projects`, { body: input, headers: { origin: EVIL } });
      expect(viaRest.status).toBe(403);
      expect(viaRest.body.error).toMatchObject({ code: "FORBIDDEN", message: "Invalid origin" });
      const nullOrigin = await session.mutation("project.create", input, { origin: "null" });
      expect(nullOrigin.status).toBe(403);
      const crossSite = await session.request(`/api/v1/organizations/${org.id}/projects`, { body: input, headers: { "sec-fetch-site": "cross-site" } });
      expect(crossSite.status).toBe(403);

      const projects = await server.database.db.select().from(schema.projects).where(eq(schema.projects.organizationId, org.id));
      expect(projects).toHaveLength(0);
      // The same calls from our own origin work (the refusals above are about the origin only).
      expect((await session.mutation("project.create", input)).error).toBeUndefined();
    });

    it("refuses better-auth's own cookie-carrying POSTs from another origin", async () => {
      const { session, email, userId } = await signUpVerified(server);
      const attempts = [
        ["organization/create", { name: "Planted", slug: `planted-${Date.now().toString(36)}` }],
        ["update-user", { name: "Mallory" }],
        ["change-password", { currentPassword: PASSWORD, newPassword: "hijacked-password" }],
        ["change-email", { newEmail: uniqueEmail("mallory") }],
        ["delete-user", { password: PASSWORD }],
        ["revoke-sessions", {}],
        ["sign-out", {}],
      ] as const;
      for (const [path, body] of attempts) {
        const response = await session.request(`${AUTH}/${path}`, { body, headers: { origin: EVIL } });
        expect(response.status, `${path}: ${response.text}`).toBe(403);
        expect(response.body.message).toBe("Invalid origin");
      }
      // Without any Origin (or Referer) a cookie-carrying POST is refused too.
      const bare = await session.request(`${AUTH}/sign-out`, { body: {}, headers: { origin: "" } });
      expect(bare.status).toBe(403);

      const user = await currentUser(session);
      expect(user).toMatchObject({ id: userId, name: "Test User", email: email.toLowerCase() });
      expect(await server.database.db.select().from(schema.member).where(eq(schema.member.userId, userId))).toHaveLength(0);
      expect((await signIn(server, email, PASSWORD)).response.status).toBe(200);
    });

    it("refuses a cross-site navigation sign-in (login CSRF)", async () => {
      const { email } = await signUpVerified(server);
      const browser = new HttpSession(server.url, EVIL);
      const response = await browser.request(`${AUTH}/sign-in/email`, {
        body: { email, password: PASSWORD },
        headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
      });
      expect(response.status).toBe(403);
      expect(await currentUser(browser)).toBeNull();
    });
  });

  describe("revocation takes effect on the next request", () => {
    it("sign-out", async () => {
      const { session } = await signUpVerified(server);
      const org = await createOrganization(session, "Leavers");
      const stolenCookie = session.cookieHeader();
      expect((await session.request(`${AUTH}/sign-out`, { body: {} })).status).toBe(200);
      const copy = new HttpSession(server.url);
      const trpc = await copy.request("/api/trpc/project.list", { headers: { cookie: stolenCookie } });
      expect(trpc.status).toBe(401);
      const rest = await copy.request(`/api/v1/organizations/${org.id}/projects`, { headers: { cookie: stolenCookie } });
      expect(rest.status).toBe(401);
    });

    it("password change with revokeOtherSessions", async () => {
      const { session, email } = await signUpVerified(server);
      const org = await createOrganization(session, "Changers");
      const other = (await signIn(server, email, PASSWORD)).session;
      await other.request(`${AUTH}/organization/set-active`, { body: { organizationId: org.id } });
      expect((await other.query("project.list")).data).toEqual([]);
      const changed = await session.request(`${AUTH}/change-password`, {
        body: { currentPassword: PASSWORD, newPassword: "changed-password-1", revokeOtherSessions: true },
      });
      expect(changed.status).toBe(200);
      expect((await other.query("project.list")).error?.code).toBe("UNAUTHORIZED");
      expect((await other.request(`/api/v1/organizations/${org.id}/projects`)).status).toBe(401);
      // This browser continues on the fresh session change-password issued.
      expect(await currentUser(session)).not.toBeNull();
    });

    it("member removal", async () => {
      const owner = await signUpVerified(server);
      const org = await createOrganization(owner.session, "Removers");
      const email = uniqueEmail("removed");
      await owner.session.request(`${AUTH}/organization/invite-member`, { body: { email, role: "admin", organizationId: org.id } });
      const invitationId = new URL(lastMail(server, email, "invitation").actionUrl).searchParams.get("invitationId");
      const removed = await signUpVerified(server, { email });
      expect((await removed.session.request(`${AUTH}/organization/accept-invitation`, { body: { invitationId } })).status).toBe(200);
      expect((await removed.session.query("project.list")).data).toEqual([]);

      const removal = await owner.session.request(`${AUTH}/organization/remove-member`, { body: { memberIdOrEmail: email, organizationId: org.id } });
      expect(removal.status, removal.text).toBe(200);
      expect((await removed.session.query("project.list")).error?.code).toBe("NOT_FOUND");
      expect((await removed.session.mutation("project.create", { name: "After", platform: "NODE_JS" })).error?.code).toBe("NOT_FOUND");
      expect((await removed.session.request(`/api/v1/organizations/${org.id}/projects`)).status).toBe(404);
    });
  });
});
