/**
 * The sole owner of an organization cannot delete their account (decision: refuse, not promote an
 * admin behind everyone's back). Deleting them used to leave an organization nobody could delete
 * or hand on. Checked when deletion is asked for — password, token or mailed link — and again
 * when the mailed link is opened, since ownership can change in between.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema/index";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, lastMail, PASSWORD, signUpVerified, uniqueEmail } from "../helpers/test-users";

const AUTH = "/api/auth";
const only = (names: string, which = "the organization") =>
  `You are the only owner of ${names}. Transfer ownership to another member or delete ${which} before deleting your account.`;

describe("deleting the account of an organization's only owner", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const post = (session: HttpSession, path: string, body: unknown) => session.request(`${AUTH}${path}`, { body });
  const userExists = async (userId: string) => (await server.database.db.select().from(schema.user).where(eq(schema.user.id, userId))).length === 1;
  const deletionMails = (email: string) => server.mailer.outbox().filter((mail) => mail.to === email.toLowerCase() && mail.kind === "delete-account");

  /** Invites a new user into `organizationId` as `role` and returns them signed in, as a member. */
  async function addMember(owner: HttpSession, organizationId: string, role: string) {
    const email = uniqueEmail("co");
    const invited = await post(owner, "/organization/invite-member", { email, role, organizationId });
    expect(invited.status, invited.text).toBe(200);
    const invitationId = new URL(lastMail(server, email, "invitation").actionUrl).searchParams.get("invitationId");
    const person = await signUpVerified(server, { email });
    const accepted = await post(person.session, "/organization/accept-invitation", { invitationId });
    expect(accepted.status, accepted.text).toBe(200);
    return { ...person, memberId: accepted.body.member.id as string };
  }

  it("refuses with a message saying to transfer ownership or delete the organization, and mails nothing", async () => {
    const owner = await signUpVerified(server);
    await createOrganization(owner.session, "Solo");
    await addMember(owner.session, (await createOrganization(owner.session, "Crew")).id, "admin");

    for (const body of [{ password: PASSWORD }, {}, { token: "0".repeat(32) }]) {
      const response = await post(owner.session, "/delete-user", body);
      expect(response.status, response.text).toBe(400);
      expect(response.body).toEqual({ code: "SOLE_OWNER_OF_ORGANIZATION", message: only("Solo and Crew", "these organizations") });
    }
    expect(deletionMails(owner.email)).toHaveLength(0);
    expect(await userExists(owner.userId)).toBe(true);
  });

  it("lets an owner go once another owner exists, and lets a plain member or admin go", async () => {
    const owner = await signUpVerified(server);
    const org = await createOrganization(owner.session, "Shared");
    const admin = await addMember(owner.session, org.id, "admin");
    expect((await post(owner.session, "/delete-user", { password: PASSWORD })).body.code).toBe("SOLE_OWNER_OF_ORGANIZATION");

    const promoted = await post(owner.session, "/organization/update-member-role", { memberId: admin.memberId, role: "owner", organizationId: org.id });
    expect(promoted.status, promoted.text).toBe(200);
    // With the right password the account goes at once (spec §5; issue 14 item 11).
    const requested = await post(owner.session, "/delete-user", { password: PASSWORD });
    expect(requested.status, requested.text).toBe(200);
    expect(requested.body.message).toBe("User deleted");
    expect(await userExists(owner.userId)).toBe(false);

    const member = await addMember(admin.session, org.id, "member");
    const memberGoes = await post(member.session, "/delete-user", {});
    expect(memberGoes.status, memberGoes.text).toBe(200);
  });

  it("checks again when the mailed link is opened: an owner left alone in between is kept", async () => {
    const owner = await signUpVerified(server);
    const org = await createOrganization(owner.session, "Fleeting");
    const coOwner = await addMember(owner.session, org.id, "owner");
    const requested = await post(owner.session, "/delete-user", {});
    expect(requested.body.message).toBe("Verification email sent");

    const left = await post(coOwner.session, "/organization/leave", { organizationId: org.id });
    expect(left.status, left.text).toBe(200);
    const link = new URL(lastMail(server, owner.email, "delete-account").actionUrl);
    const opened = await owner.session.request(link.pathname + link.search);
    expect(opened.status).toBe(400);
    expect(opened.body).toEqual({ code: "SOLE_OWNER_OF_ORGANIZATION", message: only("Fleeting") });
    expect(await userExists(owner.userId)).toBe(true);
  });

  it("lets the owner go after deleting the organization", async () => {
    const owner = await signUpVerified(server);
    const org = await createOrganization(owner.session, "Closing");
    expect((await post(owner.session, "/delete-user", {})).body.message).toBe(only("Closing"));
    // Organizations are deleted by the deletion job; the owner's membership goes with the request.
    const deleted = await owner.session.request(`/api/v1/organizations/${org.id}`, { method: "DELETE" });
    expect(deleted.status, deleted.text).toBe(202);
    const requested = await post(owner.session, "/delete-user", {});
    expect(requested.status, requested.text).toBe(200);
    expect(requested.body.message).toBe("Verification email sent");
  });
});
