/**
 * Issue 31, finding 1: a role could be raised past its holder's own permissions. Each attack of
 * the attacker's pass, over HTTP on better-auth's endpoints: refused with 403 and nothing changed.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema/index";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { uniqueEmail } from "../helpers/test-users";
import { AUTH } from "./auth-kit";
import { addMember, orgPost, ownerWithOrganization } from "./org-kit";

describe("role escalation (issue 31, finding 1)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function roleOf(organizationId: string, userId: string) {
    const [row] = await server.database.db
      .select({ role: schema.member.role })
      .from(schema.member)
      .where(and(eq(schema.member.organizationId, organizationId), eq(schema.member.userId, userId)));
    return row?.role;
  }

  const invitationsFor = (organizationId: string, email: string) =>
    server.database.db
      .select()
      .from(schema.invitation)
      .where(and(eq(schema.invitation.organizationId, organizationId), eq(schema.invitation.email, email)));

  async function expectRefused(session: HttpSession, path: string, body: unknown, message: unknown) {
    const response = await orgPost(session, path, body);
    expect(response.status, `${path} ${response.text}`).toBe(403);
    expect(response.body.message).toEqual(message);
  }

  it("a role with only member:update cannot make itself admin", async () => {
    const { owner, org } = await ownerWithOrganization(server);
    await orgPost(owner.session, "create-role", { organizationId: org.id, role: "role-editor", permission: { member: ["update"] } });
    const editor = await addMember(server, owner.session, org.id, "role-editor");
    await expectRefused(
      editor.session,
      "update-member-role",
      { organizationId: org.id, memberId: editor.memberId, role: "admin" },
      "Nobody can change their own role",
    );
    expect(await roleOf(org.id, editor.userId)).toBe("role-editor");
    // Nor make someone else admin: admin grants far more than member:update.
    const other = await addMember(server, owner.session, org.id, "member");
    await expectRefused(
      editor.session,
      "update-member-role",
      { organizationId: org.id, memberId: other.memberId, role: "admin" },
      expect.stringContaining("You can only give a role whose permissions you hold"),
    );
    expect(await roleOf(org.id, other.userId)).toBe("member");
  });

  it("a role with only invitation:create cannot invite an admin", async () => {
    const { owner, org } = await ownerWithOrganization(server);
    await orgPost(owner.session, "create-role", { organizationId: org.id, role: "recruiter", permission: { invitation: ["create"] } });
    const recruiter = await addMember(server, owner.session, org.id, "recruiter");
    const email = uniqueEmail("boss");
    for (const role of ["admin", ["member", "admin"], "owner"]) {
      const response = await orgPost(recruiter.session, "invite-member", { organizationId: org.id, email, role });
      expect(response.status, response.text).toBe(403);
    }
    expect(await invitationsFor(org.id, email)).toHaveLength(0);
    // A role it may give (recruiter grants only what the recruiter holds) goes through.
    const allowed = await orgPost(recruiter.session, "invite-member", { organizationId: org.id, email, role: "recruiter" });
    expect(allowed.status, allowed.text).toBe(200);
  });

  it("an admin cannot take an owner-made role holding organization:delete, and cannot delete the organization", async () => {
    const { owner, org } = await ownerWithOrganization(server);
    const closerMade = await orgPost(owner.session, "create-role", { organizationId: org.id, role: "closer", permission: { organization: ["delete"] } });
    expect(closerMade.status, closerMade.text).toBe(200);
    const admin = await addMember(server, owner.session, org.id, "admin");
    await expectRefused(
      admin.session,
      "update-member-role",
      { organizationId: org.id, memberId: admin.memberId, role: ["admin", "closer"] },
      "Nobody can change their own role",
    );
    const accomplice = await addMember(server, owner.session, org.id, "member");
    await expectRefused(
      admin.session,
      "update-member-role",
      { organizationId: org.id, memberId: accomplice.memberId, role: "admin,closer" },
      expect.stringContaining("You can only give a role whose permissions you hold"),
    );
    const email = uniqueEmail("closer");
    await expectRefused(
      admin.session,
      "invite-member",
      { organizationId: org.id, email, role: "closer" },
      expect.stringContaining("You can only give a role whose permissions you hold"),
    );
    expect(await invitationsFor(org.id, email)).toHaveLength(0);
    expect(await roleOf(org.id, admin.userId)).toBe("admin");
    expect(await roleOf(org.id, accomplice.userId)).toBe("member");
    expect((await orgPost(admin.session, "delete", { organizationId: org.id })).status).toBe(403);
    // The route that deletes organizations (through the deletion job) refuses it as well.
    expect((await admin.session.request(`/api/v1/organizations/${org.id}`, { method: "DELETE" })).status).toBe(403);
    expect(await server.database.db.select().from(schema.organization).where(eq(schema.organization.id, org.id))).toHaveLength(1);
  });

  it("an admin cannot create or widen a role past its own permissions", async () => {
    const { owner, org } = await ownerWithOrganization(server);
    const admin = await addMember(server, owner.session, org.id, "admin");
    await expectRefused(
      admin.session,
      "create-role",
      { organizationId: org.id, role: "wrecker", permission: { organization: ["delete"] } },
      "You can only grant permissions you hold",
    );
    const made = await orgPost(admin.session, "create-role", { organizationId: org.id, role: "helper", permission: { team: ["create"] } });
    expect(made.status, made.text).toBe(200);
    await expectRefused(
      admin.session,
      "update-role",
      { organizationId: org.id, roleName: "helper", data: { permission: { team: ["create"], organization: ["delete"] } } },
      "You can only grant permissions you hold",
    );
    const roles = await server.database.db.select().from(schema.organizationRole).where(eq(schema.organizationRole.organizationId, org.id));
    expect(roles.map((row) => [row.role, JSON.parse(row.permission)])).toEqual([["helper", { team: ["create"] }]]);
  });

  it("only an owner gives or takes owner, and nobody changes their own role", async () => {
    const { owner, org } = await ownerWithOrganization(server);
    const admin = await addMember(server, owner.session, org.id, "admin");
    const member = await addMember(server, owner.session, org.id, "member");
    await expectRefused(
      admin.session,
      "update-member-role",
      { organizationId: org.id, memberId: member.memberId, role: "owner" },
      "Only an owner can make someone an owner",
    );
    await expectRefused(
      admin.session,
      "update-member-role",
      { organizationId: org.id, memberId: owner.memberId, role: "member" },
      "Only an owner can change an owner's role",
    );
    await expectRefused(
      owner.session,
      "update-member-role",
      { organizationId: org.id, memberId: owner.memberId, role: "admin" },
      "Nobody can change their own role",
    );
    expect(await roleOf(org.id, owner.userId)).toBe("owner");
    expect(await roleOf(org.id, member.userId)).toBe("member");
    // What the rules allow still works: an owner makes a co-owner, who may then demote the first.
    expect((await orgPost(owner.session, "update-member-role", { organizationId: org.id, memberId: member.memberId, role: "owner" })).status).toBe(200);
    const demoted = await orgPost(member.session, "update-member-role", { organizationId: org.id, memberId: owner.memberId, role: "admin" });
    expect(demoted.status, demoted.text).toBe(200);
    expect(await roleOf(org.id, owner.userId)).toBe("admin");
    // An admin gives a role it covers.
    await orgPost(owner.session, "create-role", { organizationId: org.id, role: "triager", permission: { issue: ["triage"] } });
    const third = await addMember(server, member.session, org.id, "member");
    expect((await orgPost(admin.session, "update-member-role", { organizationId: org.id, memberId: third.memberId, role: "triager" })).status).toBe(200);
  });

  it("owners and admins see the members of a team they are not in; members of the organization outside it do not", async () => {
    const { owner, org } = await ownerWithOrganization(server);
    const admin = await addMember(server, owner.session, org.id, "admin");
    const member = await addMember(server, owner.session, org.id, "member");
    const created = await orgPost(admin.session, "create-team", { organizationId: org.id, name: "On call" });
    expect(created.status, created.text).toBe(200);
    const teamId = created.body.id as string;
    // The creator is not made a member; put the member in, then take the admin out if it was added.
    expect((await orgPost(admin.session, "add-team-member", { organizationId: org.id, teamId, userId: member.userId })).status).toBe(200);
    await orgPost(admin.session, "remove-team-member", { organizationId: org.id, teamId, userId: admin.userId });
    for (const viewer of [owner, admin]) {
      const listed = await viewer.session.request(`${AUTH}/organization/list-team-members?teamId=${teamId}`);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.map((row: { userId: string }) => row.userId)).toEqual([member.userId]);
    }
    const outsiderInOrg = await addMember(server, owner.session, org.id, "member");
    const refused = await outsiderInOrg.session.request(`${AUTH}/organization/list-team-members?teamId=${teamId}`);
    expect(refused.status).toBe(400);
    // Another organization's owner learns nothing.
    const stranger = await ownerWithOrganization(server, "Elsewhere");
    expect((await stranger.owner.session.request(`${AUTH}/organization/list-team-members?teamId=${teamId}`)).status).toBe(400);
  });
});
