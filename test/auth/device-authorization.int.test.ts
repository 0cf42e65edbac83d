/**
 * Issue 14, item 10: device authorization (spec §3, §9) so a command-line tool can sign in, over
 * HTTP as the tool and a browser would do it: device code → a signed-in person approves the user
 * code → the tool's poll gets a session token.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema/index";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { signUpVerified } from "../helpers/test-users";
import { atClockOffset, AUTH, MINUTE } from "./auth-kit";

const CLIENT_ID = "faultline-cli";
const GRANT = "urn:ietf:params:oauth:grant-type:device_code";

describe("device authorization (faultline-cli)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** The tool: no cookies, no Origin. */
  const tool = () => new HttpSession(server.url, null);
  const requestCode = async () => {
    const response = await tool().request(`${AUTH}/device/code`, { body: { client_id: CLIENT_ID } });
    expect(response.status, response.text).toBe(200);
    return response.body as {
      device_code: string;
      user_code: string;
      verification_uri: string;
      verification_uri_complete: string;
      expires_in: number;
      interval: number;
    };
  };
  const poll = (deviceCode: string) => tool().request(`${AUTH}/device/token`, { body: { grant_type: GRANT, device_code: deviceCode, client_id: CLIENT_ID } });

  it("hands out codes with the spec's defaults: 40-character device code, 8-character user code, 30 minutes, 5 s", async () => {
    const code = await requestCode();
    expect(code.device_code).toHaveLength(40);
    expect(code.user_code).toMatch(/^[A-Z0-9]{8}$/);
    expect(code.expires_in).toBe(30 * 60);
    expect(code.interval).toBe(5);
    expect(code.verification_uri).toBe(`${server.url}/device`);
    expect(new URL(code.verification_uri_complete).searchParams.get("user_code")).toBe(code.user_code);
  });

  it("refuses any other client id", async () => {
    const response = await tool().request(`${AUTH}/device/code`, { body: { client_id: "someone-else" } });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("invalid_client");
  });

  it("signs the tool in once a signed-in user approves the code", async () => {
    const code = await requestCode();
    const pending = await poll(code.device_code);
    expect(pending.status).toBe(400);
    expect(pending.body.error).toBe("authorization_pending");

    const person = await signUpVerified(server);
    const seen = await person.session.request(`${AUTH}/device?user_code=${code.user_code}`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).toMatchObject({ user_code: code.user_code, status: "pending", client_id: CLIENT_ID });
    const approved = await person.session.request(`${AUTH}/device/approve`, { body: { userCode: code.user_code } });
    expect(approved.status, approved.text).toBe(200);

    // Polling faster than the interval is told to slow down; after it, the token comes.
    const tooSoon = await poll(code.device_code);
    expect(tooSoon.body.error).toBe("slow_down");
    const granted = await atClockOffset(6_000, () => poll(code.device_code));
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body).toMatchObject({ token_type: "Bearer", access_token: expect.any(String) });
    const [session] = await server.database.db.select().from(schema.session).where(eq(schema.session.token, granted.body.access_token));
    expect(session.userId).toBe(person.userId);

    // The code is spent.
    const again = await atClockOffset(12_000, () => poll(code.device_code));
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
  });

  it("needs a session to approve, and only the person who opened the code may approve it", async () => {
    const code = await requestCode();
    const anonymous = await new HttpSession(server.url).request(`${AUTH}/device/approve`, { body: { userCode: code.user_code } });
    expect(anonymous.status).toBe(401);
    const first = await signUpVerified(server);
    await first.session.request(`${AUTH}/device?user_code=${code.user_code}`);
    const second = await signUpVerified(server);
    const hijack = await second.session.request(`${AUTH}/device/approve`, { body: { userCode: code.user_code } });
    expect(hijack.status).toBe(403);
    const denied = await first.session.request(`${AUTH}/device/deny`, { body: { userCode: code.user_code } });
    expect(denied.status).toBe(200);
    const refused = await atClockOffset(6_000, () => poll(code.device_code));
    expect(refused.body.error).toBe("access_denied");
  });

  it("expires after 30 minutes", async () => {
    const code = await requestCode();
    const person = await signUpVerified(server);
    const late = await atClockOffset(31 * MINUTE, () => person.session.request(`${AUTH}/device?user_code=${code.user_code}`));
    expect(late.status).toBe(400);
    expect(late.body.error).toBe("expired_token");
    const polled = await atClockOffset(31 * MINUTE, () => poll(code.device_code));
    expect(polled.body.error).toBe("expired_token");
  });
});
