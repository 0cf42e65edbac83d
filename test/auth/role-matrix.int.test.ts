import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema/index";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, lastMail, signUpVerified, uniqueEmail } from "../helpers/test-users";
import { AUTH } from "./auth-kit";

/**
 * Battery E2. The expected table is copied by hand from the product spec §6 and issue 31's product
 * resources — deliberately NOT imported from shared/permissions.ts, so a wrong role definition
 * cannot agree with itself.
 *
 *   owner:  organization update and delete; member all; invitation create and cancel; team all; ac all;
 *           every product grant
 *   admin:  the same as owner except organization update only (no delete)
 *   member: no organization, member, invitation or team actions; ac read only; triages issues and
 *           snoozes alert rules, nothing else of the product
 *   Several roles may be comma-separated; any one granting the permission suffices.
 */
const RESOURCES = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
  project: ["create", "update", "delete", "keys"],
  issue: ["triage", "delete"],
  alert: ["manage", "snooze"],
  integration: ["connect", "block"],
  apiToken: ["create", "revoke"],
  billing: ["manage"],
  release: ["manage"],
} as const;

const EVERY_PRODUCT_GRANT = {
  project: { create: true, update: true, delete: true, keys: true },
  issue: { triage: true, delete: true },
  alert: { manage: true, snooze: true },
  integration: { connect: true, block: true },
  apiToken: { create: true, revoke: true },
  billing: { manage: true },
  release: { manage: true },
};

type Grants = { [R in keyof typeof RESOURCES]: Record<(typeof RESOURCES)[R][number], boolean> };

const EXPECTED: Record<string, Grants> = {
  owner: {
    organization: { update: true, delete: true },
    member: { create: true, update: true, delete: true },
    invitation: { create: true, cancel: true },
    team: { create: true, update: true, delete: true },
    ac: { create: true, read: true, update: true, delete: true },
    ...EVERY_PRODUCT_GRANT,
  },
  admin: {
    organization: { update: true, delete: false },
    member: { create: true, update: true, delete: true },
    invitation: { create: true, cancel: true },
    team: { create: true, update: true, delete: true },
    ac: { create: true, read: true, update: true, delete: true },
    ...EVERY_PRODUCT_GRANT,
  },
  member: {
    organization: { update: false, delete: false },
    member: { create: false, update: false, delete: false },
    invitation: { create: false, cancel: false },
    team: { create: false, update: false, delete: false },
    ac: { create: false, read: true, update: false, delete: false },
    project: { create: false, update: false, delete: false, keys: false },
    issue: { triage: true, delete: false },
    alert: { manage: false, snooze: true },
    integration: { connect: false, block: false },
    apiToken: { create: false, revoke: false },
    billing: { manage: false },
    release: { manage: false },
  },
  "admin,member": {
    organization: { update: true, delete: false },
    member: { create: true, update: true, delete: true },
    invitation: { create: true, cancel: true },
    team: { create: true, update: true, delete: true },
    ac: { create: true, read: true, update: true, delete: true },
    ...EVERY_PRODUCT_GRANT,
  },
};

describe("organization role matrix (battery E2)", () => {
  let server: TestServer;
  let orgId: string;
  const actors: Record<string, { session: HttpSession; userId: string }> = {};

  const post = (session: HttpSession, path: string, body: unknown) => session.request(`${AUTH}/organization/${path}`, { body });

  async function join(owner: HttpSession, role: string[] | string) {
    const email = uniqueEmail("role");
    const invited = await post(owner, "invite-member", { email, role, organizationId: orgId });
    expect(invited.status, invited.text).toBe(200);
    const invitationId = new URL(lastMail(server, email, "invitation").actionUrl).searchParams.get("invitationId");
    const user = await signUpVerified(server, { email });
    const accepted = await post(user.session, "accept-invitation", { invitationId });
    expect(accepted.status, accepted.text).toBe(200);
    return user;
  }

  beforeAll(async () => {
    server = await startTestServer();
    const owner = await signUpVerified(server, { name: "Owner" });
    orgId = (await createOrganization(owner.session, "Matrix")).id;
    actors.owner = owner;
    actors.admin = await join(owner.session, "admin");
    actors.member = await join(owner.session, "member");
    actors["admin,member"] = await join(owner.session, ["admin", "member"]);
  });
  afterAll(() => server.close());

  it("stores each actor's role as written", async () => {
    for (const [role, actor] of Object.entries(actors)) {
      const [row] = await server.database.db
        .select()
        .from(schema.member)
        .where(and(eq(schema.member.organizationId, orgId), eq(schema.member.userId, actor.userId)));
      expect(row.role).toBe(role);
    }
  });

  it("answers has-permission exactly as the spec's table for every role × resource × action", async () => {
    const mismatches: string[] = [];
    let checks = 0;
    for (const [role, grants] of Object.entries(EXPECTED)) {
      for (const [resource, actions] of Object.entries(RESOURCES)) {
        for (const action of actions) {
          const response = await post(actors[role].session, "has-permission", { organizationId: orgId, permissions: { [resource]: [action] } });
          expect(response.status, response.text).toBe(200);
          checks++;
          const expected = (grants as Record<string, Record<string, boolean>>)[resource][action];
          if (response.body.success !== expected) mismatches.push(`${role} ${resource}:${action} expected ${expected}, got ${response.body.success}`);
        }
      }
    }
    console.log(`role matrix: ${checks} checks, ${mismatches.length} mismatches`);
    // 4 roles × 28 resource actions (organization 2, member 3, invitation 2, team 3, ac 4; project 4,
    // issue 2, alert 2, integration 2, apiToken 2, billing 1, release 1).
    expect(checks).toBe(4 * 28);
    expect(mismatches).toEqual([]);
  });

  it("combines several requested permissions with AND", async () => {
    const both = { organizationId: orgId, permissions: { organization: ["update", "delete"] } };
    expect((await post(actors.owner.session, "has-permission", both)).body.success).toBe(true);
    expect((await post(actors.admin.session, "has-permission", both)).body.success).toBe(false);
    const mixed = { organizationId: orgId, permissions: { ac: ["read"], team: ["create"] } };
    expect((await post(actors.member.session, "has-permission", mixed)).body.success).toBe(false);
    expect((await post(actors["admin,member"].session, "has-permission", mixed)).body.success).toBe(true);
  });

  it("enforces the table on real calls: members cannot invite, update or delete; admins update but not delete; owners delete", async () => {
    const member = actors.member.session;
    const memberInvite = await post(member, "invite-member", { email: uniqueEmail("nope"), role: "member", organizationId: orgId });
    expect(memberInvite.status).toBe(403);
    expect(memberInvite.body.message).toBe("You are not allowed to invite users to this organization");
    const memberUpdate = await post(member, "update", { organizationId: orgId, data: { name: "Hijacked" } });
    expect(memberUpdate.status).toBe(403);
    expect(memberUpdate.body.message).toBe("You are not allowed to update this organization");
    // Organizations are deleted through the deletion job's route (better-auth's endpoint is closed to all).
    const deleteOrganization = (session: HttpSession) => session.request(`/api/v1/organizations/${orgId}`, { method: "DELETE" });
    const memberDelete = await deleteOrganization(member);
    expect(memberDelete.status).toBe(403);
    expect(memberDelete.body.error.message).toBe("Your role cannot delete the organization");

    const admin = actors.admin.session;
    const adminUpdate = await post(admin, "update", { organizationId: orgId, data: { name: "Matrix by admin" } });
    expect(adminUpdate.status, adminUpdate.text).toBe(200);
    expect(adminUpdate.body.name).toBe("Matrix by admin");
    const adminInviteOwner = await post(admin, "invite-member", { email: uniqueEmail("boss"), role: "owner", organizationId: orgId });
    expect(adminInviteOwner.status).toBe(403);
    const adminDelete = await deleteOrganization(admin);
    expect(adminDelete.status).toBe(403);
    expect(adminDelete.body.error.message).toBe("Your role cannot delete the organization");
    const [org] = await server.database.db.select().from(schema.organization).where(eq(schema.organization.id, orgId));
    expect(org.name).toBe("Matrix by admin");

    expect((await post(actors.owner.session, "delete", { organizationId: orgId })).body.code).toBe("DELETE_ORGANIZATION_THROUGH_API");
    const ownerDelete = await deleteOrganization(actors.owner.session);
    expect(ownerDelete.status, ownerDelete.text).toBe(202);
    await expect
      .poll(async () => (await actors.owner.session.request(`/api/v1/deletions/${ownerDelete.body.deletionId}`)).body.status, { timeout: 10_000, interval: 50 })
      .toBe("done");
    const remaining = await server.database.db.select().from(schema.organization).where(eq(schema.organization.id, orgId));
    expect(remaining).toHaveLength(0);
  });
});
