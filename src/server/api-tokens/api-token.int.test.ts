import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../../../test/helpers/http-session";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { issueByType, sendEvent, triageTenant } from "../../../test/helpers/triage-seed";
import { addMember, orgPost } from "../../../test/auth/org-kit";
import { lastMail } from "../../../test/helpers/test-users";
import { executeRows } from "../db/execute";
import { apiTokens } from "../db/schema/index";

/** Organization API tokens: created once-shown, stored hashed, scoped, revocable, bound to their organization. */
describe("organization API tokens", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;
  let issueId: string;
  const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
  const api = () => new HttpSession(server.url, null);
  const issuesUrl = () => `/api/v1/organizations/${tenant.org.id}/projects/${tenant.project.id}/issues`;

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await triageTenant(server, "Tokens");
    await sendEvent(server, tenant.project, { type: "TokenError", value: "seen through a token", fn: "handler" });
    issueId = (await issueByType(tenant.session, tenant.project.id, "TokenError")).id;
  });
  afterAll(() => server.close());

  async function createToken(scopes: string[], extra: Record<string, unknown> = {}) {
    const created = await tenant.session.mutation("apiToken.create", { name: `token ${scopes.join(" ")}`, scopes, ...extra });
    expect(created.error).toBeUndefined();
    return created.data as { token: { id: string; prefix: string; scopes: string[] }; secret: string };
  }

  it("shows the secret once and keeps only its hash", async () => {
    const { token, secret } = await createToken(["event:read", "project:read"]);
    expect(secret).toMatch(/^flt_[A-Za-z0-9_-]{40}$/);
    expect(secret.startsWith(token.prefix)).toBe(true);
    expect(token.scopes).toEqual(["event:read", "project:read"]);
    const listed = await tenant.session.query("apiToken.list");
    expect(JSON.stringify(listed.data)).not.toContain(secret);
    expect(listed.data.map((t: { id: string }) => t.id)).toContain(token.id);
    const dump = await executeRows<{ row: string }>(server.database.db, sql`select t::text as row from api_tokens t`);
    expect(dump.map((r) => r.row).join("\n")).not.toContain(secret);
  });

  it("reads through the REST API with event:read and records when it was last used", async () => {
    const { token, secret } = await createToken(["event:read"]);
    const list = await api().request(issuesUrl(), { headers: bearer(secret) });
    expect(list.status, list.text).toBe(200);
    expect(list.body.items.map((item: { id: string }) => item.id)).toContain(issueId);
    const [row] = await server.database.db.select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(row.lastUsedAt).toBeInstanceOf(Date);
  });

  it("refuses a write without its scope, and routes closed to tokens", async () => {
    const { secret } = await createToken(["event:read"]);
    const write = await api().request(`${issuesUrl()}/${issueId}/status`, { method: "PUT", body: { status: "RESOLVED" }, headers: bearer(secret) });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toBe("This API token lacks the event:write scope");
    const tokens = await api().request(`/api/v1/organizations/${tenant.org.id}/api-tokens`, { headers: bearer(secret) });
    expect(tokens.status).toBe(403);
    expect(tokens.body.error.message).toBe("API tokens cannot call this route; sign in instead");
  });

  it("triages with event:write, as the token's creator", async () => {
    const { secret } = await createToken(["event:write", "event:read"]);
    const write = await api().request(`${issuesUrl()}/${issueId}/status`, { method: "PUT", body: { status: "RESOLVED" }, headers: bearer(secret) });
    expect(write.status, write.text).toBe(200);
    expect(write.body.status).toBe("RESOLVED");
    const detail = await tenant.session.query("issue.get", { projectId: tenant.project.id, issueId });
    expect(detail.data.activity.some((entry: { actor?: { id: string } | null }) => entry.actor?.id === tenant.userId)).toBe(true);
  });

  it("answers 401 to unknown, malformed, revoked and expired tokens alike", async () => {
    const { token, secret } = await createToken(["event:read"]);
    const revoked = await tenant.session.mutation("apiToken.revoke", { tokenId: token.id });
    expect(revoked.data).toEqual({ revoked: true });
    const expired = await createToken(["event:read"], { expiresInDays: 1 });
    await server.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expired.token.id));
    for (const candidate of [secret, expired.secret, "flt_" + "x".repeat(40), "not-a-token"]) {
      const response = await api().request(issuesUrl(), { headers: bearer(candidate) });
      expect(response.status, candidate.slice(0, 8)).toBe(401);
      expect(response.body.error.message).toBe("Invalid or revoked API token");
    }
  });

  // Leaving revokes the creator's tokens by every path (schema/api-tokens.ts): rejoining, here with
  // a lower role, must not bring them back.
  it.each([
    ["leaves", (admin: { session: HttpSession }) => orgPost(admin.session, "leave", { organizationId: tenant.org.id })],
    [
      "is removed by the owner",
      (admin: { email: string }) => orgPost(tenant.session, "remove-member", { memberIdOrEmail: admin.email, organizationId: tenant.org.id }),
    ],
  ])("is revoked when its creator %s, and stays revoked when they rejoin", async (_path, leave) => {
    const admin = await addMember(server, tenant.session, tenant.org.id, "admin");
    const created = await admin.session.mutation("apiToken.create", { name: "leaver", scopes: ["event:read"] });
    expect((await api().request(issuesUrl(), { headers: bearer(created.data.secret) })).status).toBe(200);
    const left = await leave(admin);
    expect(left.status, left.text).toBe(200);
    expect((await api().request(issuesUrl(), { headers: bearer(created.data.secret) })).status).toBe(401);

    const invited = await orgPost(tenant.session, "invite-member", { email: admin.email, role: "member", organizationId: tenant.org.id });
    expect(invited.status, invited.text).toBe(200);
    const invitationId = new URL(lastMail(server, admin.email, "invitation").actionUrl).searchParams.get("invitationId");
    const rejoined = await orgPost(admin.session, "accept-invitation", { invitationId });
    expect(rejoined.status, rejoined.text).toBe(200);
    const answer = await api().request(issuesUrl(), { headers: bearer(created.data.secret) });
    expect(answer.status).toBe(401);
    expect(answer.body.error.message).toBe("Invalid or revoked API token");
    const listed = await tenant.session.query("apiToken.list");
    expect(listed.data.map((token: { id: string }) => token.id)).not.toContain(created.data.token.id);
  });

  it("ignores a session cookie sent with a token, and a mass-assigned organization", async () => {
    const other = await triageTenant(server, "Other");
    const { secret } = await createToken(["event:read"]);
    // The other tenant's browser session must not let the token into the other organization.
    const mixed = await other.session.request(`/api/v1/organizations/${other.org.id}/projects/${other.project.id}/issues`, { headers: bearer(secret) });
    expect(mixed.status).toBe(404);
    const created = await tenant.session.mutation("apiToken.create", { name: "mass", scopes: ["event:read"], organizationId: other.org.id });
    const [row] = await server.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.data.token.id));
    expect(row.organizationId).toBe(tenant.org.id);
  });

  it("validates the form's input with the messages people read", async () => {
    const empty = await tenant.session.mutation("apiToken.create", { name: "  ", scopes: [] });
    expect(empty.error?.code).toBe("BAD_REQUEST");
    expect(JSON.stringify(empty.error?.details)).toContain("Give the token a name");
    expect(JSON.stringify(empty.error?.details)).toContain("Choose at least one scope");
    const rest = await tenant.session.request(`/api/v1/organizations/${tenant.org.id}/api-tokens`, { body: { name: "x", scopes: ["admin:all"] } });
    expect(rest.status).toBe(400);
    expect(rest.body.error.code).toBe("VALIDATION_ERROR");
  });
});
