/**
 * Issue 14, item 10: organization roles (spec §3, §6), custom roles with a permission map per
 * organization, managed by owners and admins (the `ac` resource), assignable to members and
 * enforced by the same permission check as the built-in roles.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statements } from "../../src/server/auth/access-control";
import { PERMISSION_STATEMENTS } from "../../src/shared/permissions";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { uniqueEmail } from "../helpers/test-users";
import { AUTH } from "./auth-kit";
import { addMember, orgPost, ownerWithOrganization } from "./org-kit";

describe("organization roles", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("offers exactly the permission table's resources and actions", () => {
    expect(PERMISSION_STATEMENTS).toEqual(statements);
  });

  it("owners and admins create, read, update and delete roles; members only read", async () => {
    const { owner, org } = await ownerWithOrganization(server);
    const admin = await addMember(server, owner.session, org.id, "admin");
    const member = await addMember(server, owner.session, org.id, "member");

    const created = await orgPost(owner.session, "create-role", {
      organizationId: org.id,
      role: "recruiter",
      permission: { invitation: ["create", "cancel"] },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.roleData).toMatchObject({ role: "recruiter", organizationId: org.id });
    const byAdmin = await orgPost(admin.session, "create-role", { organizationId: org.id, role: "team-lead", permission: { team: ["create", "update"] } });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    const byMember = await orgPost(member.session, "create-role", { organizationId: org.id, role: "sneaky", permission: { member: ["delete"] } });
    expect(byMember.status).toBe(403);

    const listed = await member.session.request(`${AUTH}/organization/list-roles?organizationId=${org.id}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.map((role: { role: string }) => role.role).sort()).toEqual(["recruiter", "team-lead"]);
    const permission = listed.body.find((role: { role: string }) => role.role === "recruiter").permission;
    expect(typeof permission === "string" ? JSON.parse(permission) : permission).toEqual({ invitation: ["create", "cancel"] });

    const updated = await orgPost(admin.session, "update-role", {
      organizationId: org.id,
      roleName: "team-lead",
      data: { permission: { team: ["create", "update", "delete"] } },
    });
    expect(updated.status, updated.text).toBe(200);
    expect((await orgPost(member.session, "update-role", { organizationId: org.id, roleName: "team-lead", data: { permission: { team: [] } } })).status).toBe(
      403,
    );
    expect((await orgPost(member.session, "delete-role", { organizationId: org.id, roleName: "team-lead" })).status).toBe(403);
    const deleted = await orgPost(owner.session, "delete-role", { organizationId: org.id, roleName: "team-lead" });
    expect(deleted.status, deleted.text).toBe(200);
  });

  it("refuses bad names, built-in names and permissions outside the spec's table", async () => {
    const { owner, org } = await ownerWithOrganization(server);
    for (const [role, permission] of [
      ["x", { team: ["create"] }],
      ["Has Spaces", { team: ["create"] }],
      ["admin", { team: ["create"] }],
      ["ops", { projects: ["delete"] }],
      ["ops", { team: ["explode"] }],
    ] as const) {
      const response = await orgPost(owner.session, "create-role", { organizationId: org.id, role, permission });
      expect(response.status, `${role} ${JSON.stringify(permission)}`).toBe(400);
    }
    await orgPost(owner.session, "create-role", { organizationId: org.id, role: "ops", permission: { team: ["create"] } });
    const duplicate = await orgPost(owner.session, "create-role", { organizationId: org.id, role: "ops", permission: { team: ["create"] } });
    expect(duplicate.status).toBe(400);
  });

  it("a member given a custom role may do what it grants, and nothing more", async () => {
    const { owner, org } = await ownerWithOrganization(server);
    await orgPost(owner.session, "create-role", { organizationId: org.id, role: "recruiter", permission: { invitation: ["create"] } });
    const person = await addMember(server, owner.session, org.id, "member");
    const before = await orgPost(person.session, "invite-member", { email: uniqueEmail("hire"), role: "member", organizationId: org.id });
    expect(before.status).toBe(403);

    const assigned = await orgPost(owner.session, "update-member-role", { memberId: person.memberId, role: "recruiter", organizationId: org.id });
    expect(assigned.status, assigned.text).toBe(200);
    // A role is given only by someone holding all it grants (issue 31): the recruiter invites recruiters, not members.
    const invited = await orgPost(person.session, "invite-member", { email: uniqueEmail("hire"), role: "recruiter", organizationId: org.id });
    expect(invited.status, invited.text).toBe(200);
    const other = await addMember(server, owner.session, org.id, "member");
    const removal = await orgPost(person.session, "remove-member", { memberIdOrEmail: other.memberId, organizationId: org.id });
    expect(removal.status).toBe(403);
    // An unknown role cannot be assigned.
    const unknown = await orgPost(owner.session, "update-member-role", { memberId: person.memberId, role: "wizard", organizationId: org.id });
    expect(unknown.status).toBe(400);
  });

  it("keeps each organization's roles to itself", async () => {
    const first = await ownerWithOrganization(server, "First");
    const second = await ownerWithOrganization(server, "Second");
    await orgPost(first.owner.session, "create-role", { organizationId: first.org.id, role: "private", permission: { team: ["create"] } });
    const peek = await second.owner.session.request(`${AUTH}/organization/list-roles?organizationId=${first.org.id}`);
    expect(peek.status).toBe(403);
    const write = await orgPost(second.owner.session, "create-role", { organizationId: first.org.id, role: "intruder", permission: { member: ["delete"] } });
    expect(write.status).toBe(403);
    const own = await second.owner.session.request(`${AUTH}/organization/list-roles?organizationId=${second.org.id}`);
    expect(own.body).toEqual([]);
    // A role of another organization cannot be assigned here.
    const person = await addMember(server, second.owner.session, second.org.id, "member");
    const assign = await orgPost(second.owner.session, "update-member-role", { memberId: person.memberId, role: "private", organizationId: second.org.id });
    expect(assign.status).toBe(400);
  });
});
