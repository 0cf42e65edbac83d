/**
 * Issue 14, items 3, 7 (validation), 8, 9, 12 and 20 (server side): auth calls answering as the
 * product specification's §7 and §8 say.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { PASSWORD, signUpVerified, uniqueEmail } from "../helpers/test-users";
import { AUTH, mailsTo, signUp } from "./auth-kit";
import { addMember, orgPost, ownerWithOrganization } from "./org-kit";

describe("auth calls as the spec says (issue 14)", () => {
  let server: TestServer;
  /** REQUIRE_EMAIL_VERIFICATION=false */
  let relaxed: TestServer;
  beforeAll(async () => {
    [server, relaxed] = await Promise.all([startTestServer(), startTestServer({ env: { REQUIRE_EMAIL_VERIFICATION: "false" } })]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), relaxed?.close()]);
  });

  it("item 3: POST /forget-password is /request-password-reset (same neutral answer, same mail)", async () => {
    const { email } = await signUpVerified(server);
    const known = await new HttpSession(server.url).request(`${AUTH}/forget-password`, { body: { email, redirectTo: "/auth/reset-password" } });
    expect(known.status, known.text).toBe(200);
    expect(known.body).toMatchObject({ status: true, message: expect.any(String) });
    expect(mailsTo(server, email, "reset-password")).toHaveLength(1);
    const unknown = await new HttpSession(server.url).request(`${AUTH}/forget-password`, {
      body: { email: uniqueEmail("nobody"), redirectTo: "/auth/reset-password" },
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
  });

  describe("item 7: validation errors", () => {
    it("answer 'Invalid body parameters' with code VALIDATION_ERROR and status 400, the detail apart", async () => {
      const response = await new HttpSession(server.url).request(`${AUTH}/sign-in/email`, { body: { email: 42, password: PASSWORD } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid body parameters" });
      expect(response.body.details).toContain("email");
    });

    it("answer 'Invalid query parameters' for a bad query", async () => {
      const { session } = await signUpVerified(server);
      await orgPost(session, "create", { name: "Q", slug: `q-${Date.now().toString(36)}` });
      const response = await session.request(`${AUTH}/organization/list-members?limit=-5`);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid query parameters" });
    });
  });

  describe("item 8: names are checked by the server", () => {
    it("refuses a sign-up name under 2 characters", async () => {
      for (const name of ["", "A", " B "]) {
        const { response } = await signUp(server, { name });
        expect(response.status, name).toBe(400);
        expect(response.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid body parameters" });
        expect(response.body.details).toContain("[body.name]");
      }
    });

    it("refuses a team with an empty name (spec: at least 1 character)", async () => {
      const { owner, org } = await ownerWithOrganization(server);
      for (const name of ["", "   "]) {
        const response = await orgPost(owner.session, "create-team", { name, organizationId: org.id });
        expect(response.status, JSON.stringify(name)).toBe(400);
        expect(response.body.code).toBe("VALIDATION_ERROR");
      }
      const created = await orgPost(owner.session, "create-team", { name: "X", organizationId: org.id });
      expect(created.status, created.text).toBe(200);
      const renamed = await orgPost(owner.session, "update-team", { teamId: created.body.id, data: { name: "" } });
      expect(renamed.status).toBe(400);
    });
  });

  describe("item 9: signing up with an address that has an account", () => {
    it("while verification is required: the same neutral answer, and the owner is told by mail", async () => {
      const { email } = await signUpVerified(server);
      const fresh = await signUp(server);
      const duplicate = await signUp(server, { email });
      expect(duplicate.response.status).toBe(200);
      expect(Object.keys(duplicate.response.body).sort()).toEqual(Object.keys(fresh.response.body).sort());
      expect(duplicate.response.body.token).toBeNull();
      const told = mailsTo(server, email, "existing-account");
      expect(told).toHaveLength(1);
      expect(told[0].text).toMatch(/sign in/i);
      expect(told[0].text).toContain("/auth/login");
      expect(told[0].actionUrl).toContain("/auth/forgot-password");
    });

    it("with verification off: 422 'User already exists. Use another email.'", async () => {
      const first = await signUp(relaxed);
      const again = await signUp(relaxed, { email: first.email });
      expect(again.response.status).toBe(422);
      expect(again.response.body).toMatchObject({ code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", message: "User already exists. Use another email." });
    });
  });

  describe("items 12 and 20: removing members", () => {
    it("a member removing another member gets 403", async () => {
      const { owner, org } = await ownerWithOrganization(server);
      const member = await addMember(server, owner.session, org.id, "member");
      const other = await addMember(server, owner.session, org.id, "member");
      const response = await orgPost(member.session, "remove-member", { memberIdOrEmail: other.memberId, organizationId: org.id });
      expect(response.status, response.text).toBe(403);
      expect(response.body).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER", message: "You are not allowed to delete this member" });
    });

    it("an admin removing the owner gets 403 with words about ownership, not about leaving", async () => {
      const { owner, org } = await ownerWithOrganization(server);
      const admin = await addMember(server, owner.session, org.id, "admin");
      for (const memberIdOrEmail of [owner.memberId, owner.email]) {
        const response = await orgPost(admin.session, "remove-member", { memberIdOrEmail, organizationId: org.id });
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER", message: "Only an owner can remove an owner" });
      }
      // What an admin may do still works: removing a member.
      const member = await addMember(server, owner.session, org.id, "member");
      expect((await orgPost(admin.session, "remove-member", { memberIdOrEmail: member.memberId, organizationId: org.id })).status).toBe(200);
    });
  });
});
