import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema/index";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, lastMail, signUpVerified, uniqueEmail } from "../helpers/test-users";
import { atClockOffset, AUTH, DAY, HOUR, MINUTE } from "./auth-kit";

describe("organizations, invitations and teams", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const post = (session: HttpSession, path: string, body: unknown) => session.request(`${AUTH}/organization/${path}`, { body });
  const get = (session: HttpSession, path: string) => session.request(`${AUTH}/organization/${path}`);

  /** Owner invites `email` as `role`; returns the invitation id read from the mailed link. */
  async function invite(owner: HttpSession, organizationId: string, role: string | string[], email = uniqueEmail("invitee")) {
    const invited = await post(owner, "invite-member", { email, role, organizationId });
    expect(invited.status, invited.text).toBe(200);
    const link = new URL(lastMail(server, email, "invitation").actionUrl);
    expect(link.pathname).toBe("/dashboard/invites");
    const invitationId = link.searchParams.get("invitationId") as string;
    expect(invitationId).toBe(invited.body.id);
    return { email, invitationId };
  }

  it("creates, lists, updates, activates and deletes an organization", async () => {
    const { session } = await signUpVerified(server);
    const slug = `acme-${Date.now().toString(36)}`;
    const created = await post(session, "create", { name: "Acme", slug });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ name: "Acme", slug });
    const other = await createOrganization(session, "Other");

    const listed = await get(session, "list");
    expect(listed.body.map((org: { id: string }) => org.id).sort()).toEqual([created.body.id, other.id].sort());

    const taken = await post(session, "create", { name: "Copy", slug });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe("Organization already exists");

    const updated = await post(session, "update", { organizationId: created.body.id, data: { name: "Acme Inc" } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.name).toBe("Acme Inc");

    const activated = await post(session, "set-active", { organizationId: created.body.id });
    expect(activated.status).toBe(200);
    expect((await session.request(`${AUTH}/get-session`)).body.session.activeOrganizationId).toBe(created.body.id);
    const full = await get(session, "get-full-organization");
    expect(full.body).toMatchObject({ id: created.body.id, name: "Acme Inc" });
    expect(full.body.members).toHaveLength(1);
    expect(full.body.members[0].role).toBe("owner");

    // Deleted through the deletion job's route (better-auth's endpoint is closed): memberships go at once, the data after.
    expect((await post(session, "delete", { organizationId: created.body.id })).status).toBe(403);
    const deleted = await session.request(`/api/v1/organizations/${created.body.id}`, { method: "DELETE" });
    expect(deleted.status, deleted.text).toBe(202);
    expect((await session.request(`${AUTH}/get-session`)).body.session.activeOrganizationId).toBeNull();
    expect((await get(session, "list")).body.map((org: { id: string }) => org.id)).toEqual([other.id]);
    const rows = await server.database.db.select().from(schema.member).where(eq(schema.member.organizationId, created.body.id));
    expect(rows).toHaveLength(0);
  });

  it("invites by email; the invitee signs up with that address, accepts and becomes a member with the invited role", async () => {
    const owner = await signUpVerified(server, { name: "Olivia Owner" });
    const org = await createOrganization(owner.session, "Invitors");
    const { email, invitationId } = await invite(owner.session, org.id, "admin");
    const mail = lastMail(server, email, "invitation");
    expect(mail.subject).toBe("Olivia Owner invited you to Invitors on Faultline");

    // Someone else cannot take the invitation.
    const intruder = await signUpVerified(server);
    const stolen = await post(intruder.session, "accept-invitation", { invitationId });
    expect(stolen.status).toBe(403);
    expect(stolen.body.message).toBe("You are not the recipient of the invitation");

    const invitee = await signUpVerified(server, { email });
    const accepted = await post(invitee.session, "accept-invitation", { invitationId });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.member).toMatchObject({ organizationId: org.id, userId: invitee.userId, role: "admin" });
    expect(accepted.body.invitation.status).toBe("accepted");

    const active = await get(invitee.session, "get-active-member");
    expect(active.body).toMatchObject({ organizationId: org.id, role: "admin" });
    expect((await invitee.session.query("project.list")).data).toEqual([]);

    const again = await post(invitee.session, "accept-invitation", { invitationId });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("Invitation not found");
  });

  it("lets the invitee reject, and an owner cancel, an invitation", async () => {
    const owner = await signUpVerified(server);
    const org = await createOrganization(owner.session, "Choosers");

    const rejected = await invite(owner.session, org.id, "member");
    const invitee = await signUpVerified(server, { email: rejected.email });
    const rejection = await post(invitee.session, "reject-invitation", { invitationId: rejected.invitationId });
    expect(rejection.status, rejection.text).toBe(200);
    expect(rejection.body.invitation.status).toBe("rejected");
    expect((await post(invitee.session, "accept-invitation", { invitationId: rejected.invitationId })).status).toBe(400);

    const canceled = await invite(owner.session, org.id, "member");
    const cancel = await post(owner.session, "cancel-invitation", { invitationId: canceled.invitationId });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body.status).toBe("canceled");
    const late = await signUpVerified(server, { email: canceled.email });
    const lateAccept = await post(late.session, "accept-invitation", { invitationId: canceled.invitationId });
    expect(lateAccept.status).toBe(400);
    expect(lateAccept.body.message).toBe("Invitation not found");

    const members = await server.database.db.select().from(schema.member).where(eq(schema.member.organizationId, org.id));
    expect(members.map((row) => row.userId)).toEqual([owner.userId]);
  });

  it("refuses an invitation after its seven days", async () => {
    const owner = await signUpVerified(server);
    const org = await createOrganization(owner.session, "Slowpokes");
    const { email, invitationId } = await invite(owner.session, org.id, "member");
    const [row] = await server.database.db.select().from(schema.invitation).where(eq(schema.invitation.id, invitationId));
    expect(Math.abs(row.expiresAt.getTime() - (Date.now() + 7 * DAY))).toBeLessThan(MINUTE);

    const invitee = await signUpVerified(server, { email });
    await atClockOffset(7 * DAY + HOUR, async () => {
      const accepted = await post(invitee.session, "accept-invitation", { invitationId });
      expect(accepted.status).toBe(400);
      expect(accepted.body.message).toBe("Invitation not found");
    });
    const members = await server.database.db.select().from(schema.member).where(eq(schema.member.userId, invitee.userId));
    expect(members).toHaveLength(0);
  });

  it("creates, renames and deletes teams, and adds and removes team members", async () => {
    const owner = await signUpVerified(server);
    const org = await createOrganization(owner.session, "Teamsters");
    const { email, invitationId } = await invite(owner.session, org.id, "member");
    const colleague = await signUpVerified(server, { email });
    expect((await post(colleague.session, "accept-invitation", { invitationId })).status).toBe(200);

    const created = await post(owner.session, "create-team", { name: "Backend", organizationId: org.id });
    expect(created.status, created.text).toBe(200);
    const teamId = created.body.id as string;
    expect(created.body).toMatchObject({ name: "Backend", organizationId: org.id });

    const renamed = await post(owner.session, "update-team", { teamId, data: { name: "Platform" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe("Platform");

    const added = await post(owner.session, "add-team-member", { teamId, userId: colleague.userId });
    expect(added.status, added.text).toBe(200);
    const teamMembers = async () =>
      (await server.database.db.select().from(schema.teamMember).where(eq(schema.teamMember.teamId, teamId))).map((row) => row.userId);
    expect(await teamMembers()).toEqual([colleague.userId]);
    // Team members may list their team, and so may the owner, who is not in it (issue 37, item 4;
    // auth/team-member-listing.ts, and role-escalation.int.test.ts for admins and outsiders).
    for (const viewer of [colleague, owner]) {
      const listed = await viewer.session.request(`${AUTH}/organization/list-team-members?teamId=${teamId}`);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.map((row: { userId: string }) => row.userId)).toEqual([colleague.userId]);
    }
    const theirTeams = await get(colleague.session, "list-user-teams");
    expect(theirTeams.body.map((team: { id: string }) => team.id)).toContain(teamId);

    // A plain member may not manage teams.
    const memberCreate = await post(colleague.session, "create-team", { name: "Rogue", organizationId: org.id });
    expect(memberCreate.status).toBe(403);

    const removed = await post(owner.session, "remove-team-member", { teamId, userId: colleague.userId });
    expect(removed.status, removed.text).toBe(200);
    expect(await teamMembers()).toEqual([]);
    expect((await get(colleague.session, "list-user-teams")).body.map((team: { id: string }) => team.id)).not.toContain(teamId);

    const deleted = await post(owner.session, "remove-team", { teamId, organizationId: org.id });
    expect(deleted.status, deleted.text).toBe(200);
    const teams = await server.database.db.select().from(schema.team).where(eq(schema.team.id, teamId));
    expect(teams).toHaveLength(0);
  });

  it("removing a member takes effect on their next request", async () => {
    const owner = await signUpVerified(server);
    const org = await createOrganization(owner.session, "Revokers");
    const created = await owner.session.mutation("project.create", { name: "Secret API", platform: "NODE_JS" });
    expect(created.error).toBeUndefined();
    const { email, invitationId } = await invite(owner.session, org.id, "member");
    const member = await signUpVerified(server, { email });
    expect((await post(member.session, "accept-invitation", { invitationId })).status).toBe(200);
    expect((await member.session.query("project.list")).data.map((p: { id: string }) => p.id)).toEqual([created.data.id]);
    expect((await member.session.request(`/api/v1/organizations/${org.id}/projects`)).status).toBe(200);

    const removed = await post(owner.session, "remove-member", { memberIdOrEmail: email, organizationId: org.id });
    expect(removed.status, removed.text).toBe(200);

    const list = await member.session.query("project.list");
    expect(list.error?.code).toBe("NOT_FOUND");
    const rest = await member.session.request(`/api/v1/organizations/${org.id}/projects`);
    expect(rest.status).toBe(404);
    expect(rest.text).not.toContain("Secret API");
    const full = await member.session.request(`${AUTH}/organization/get-full-organization?organizationId=${org.id}`);
    expect(full.status).toBe(403);
    expect(full.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  });
});
