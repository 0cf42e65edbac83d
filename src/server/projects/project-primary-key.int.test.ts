import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProjectView } from "../../shared/project.views";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createOrganization, lastMail, signUpVerified } from "../../../test/helpers/test-users";
import type { HttpSession } from "../../../test/helpers/http-session";

/**
 * Issue 14 item 22: the project's DSN is its primary key's. Adding a key never changes it; the
 * user changes it with "make primary"; rotating the primary key keeps its successor primary.
 */
describe("the project's primary key", () => {
  let server: TestServer;
  let session: HttpSession;
  let orgId: string;
  beforeAll(async () => {
    server = await startTestServer();
    ({ session } = await signUpVerified(server));
    orgId = (await createOrganization(session)).id;
  });
  afterAll(() => server.close());

  const primaryOf = (project: ProjectView) => project.keys.filter((key) => key.isPrimary);
  const create = async (name: string): Promise<ProjectView> => (await session.mutation("project.create", { name, platform: "NODE_JS" })).data;

  it("keeps the original DSN when keys are added, over tRPC and REST", async () => {
    const project = await create("Primary keeps");
    const [original] = project.keys;
    expect(original.isPrimary).toBe(true);
    for (const label of ["Second", "Third"]) {
      const added = await session.mutation("project.createKey", { projectId: project.id, label });
      expect(added.error).toBeUndefined();
      expect(added.data.dsn).toBe(original.dsn);
      expect(added.data.apiKey).toBe(original.publicKey);
      expect(primaryOf(added.data).map((key: { id: string }) => key.id)).toEqual([original.id]);
    }
    const viaRest = await session.request(`/api/v1/organizations/${orgId}/projects/${project.id}`);
    expect(viaRest.body.dsn).toBe(original.dsn);
    const listed = (await session.query("project.list")).data.find((row: ProjectView) => row.id === project.id);
    expect(listed.dsn).toBe(original.dsn);
  });

  it("makes another active key primary on request, and refuses a revoked or foreign key", async () => {
    const project = await create("Primary chosen");
    const second = (await session.mutation("project.createKey", { projectId: project.id, label: "Second" })).data.keys.find(
      (key: { label: string }) => key.label === "Second",
    );
    const chosen = await session.mutation("project.setPrimaryKey", { projectId: project.id, keyId: second.id });
    expect(chosen.error).toBeUndefined();
    expect(chosen.data.dsn).toBe(second.dsn);
    expect(primaryOf(chosen.data).map((key: { id: string }) => key.id)).toEqual([second.id]);
    // Choosing it again changes nothing and does not fail.
    expect((await session.mutation("project.setPrimaryKey", { projectId: project.id, keyId: second.id })).data.dsn).toBe(second.dsn);

    const revoked = await session.mutation("project.revokeKey", { projectId: project.id, keyId: project.keys[0].id });
    expect(revoked.error).toBeUndefined();
    const refused = await session.mutation("project.setPrimaryKey", { projectId: project.id, keyId: project.keys[0].id });
    expect(refused.error?.code).toBe("NOT_FOUND");

    const other = await create("Other project");
    const foreign = await session.mutation("project.setPrimaryKey", { projectId: other.id, keyId: second.id });
    expect(foreign.error?.code).toBe("NOT_FOUND");
    expect((await session.query("project.get", { projectId: other.id })).data.dsn).toBe(other.dsn);
  });

  it("keeps the primary through rotation, and falls back to the oldest active key when the primary is revoked", async () => {
    const project = await create("Primary rotated");
    await session.mutation("project.createKey", { projectId: project.id, label: "Spare" });
    const rotated = (await session.mutation("project.rotateKey", { projectId: project.id, keyId: project.keys[0].id })).data as ProjectView;
    const [successor] = primaryOf(rotated);
    expect(successor.label).toBe(project.keys[0].label);
    expect(successor.id).not.toBe(project.keys[0].id);
    expect(rotated.dsn).toBe(successor.dsn);

    const spare = rotated.keys.find((key) => key.label === "Spare")!;
    const afterRevoke = (await session.mutation("project.revokeKey", { projectId: project.id, keyId: successor.id })).data as ProjectView;
    expect(afterRevoke.dsn).toBe(spare.dsn);
    expect(primaryOf(afterRevoke).map((key) => key.id)).toEqual([spare.id]);
  });

  it("serialises concurrent choices: one primary key at the end, no constraint error", async () => {
    const project = await create("Primary race");
    const keys: ProjectView["keys"] = [];
    for (const label of ["A", "B", "C"]) keys.push(...(await session.mutation("project.createKey", { projectId: project.id, label })).data.keys);
    const candidates = [...new Map(keys.map((key) => [key.id, key])).values()];
    const answers = await Promise.all(candidates.map((key) => session.mutation("project.setPrimaryKey", { projectId: project.id, keyId: key.id })));
    for (const answer of answers) expect(answer.error).toBeUndefined();
    const final = (await session.query("project.get", { projectId: project.id })).data as ProjectView;
    expect(primaryOf(final)).toHaveLength(1);
    expect(final.dsn).toBe(primaryOf(final)[0].dsn);
  });

  it("lets only owners and admins choose", async () => {
    const project = await create("Primary roles");
    const invite = await session.request("/api/auth/organization/invite-member", { body: { email: `member-${Date.now()}@example.com`, role: "member" } });
    expect(invite.status).toBe(200);
    const member = await signUpVerified(server, { email: invite.body.email });
    const invitationId = new URL(lastMail(server, invite.body.email, "invitation").actionUrl).searchParams.get("invitationId");
    await member.session.request("/api/auth/organization/accept-invitation", { body: { invitationId } });
    await member.session.request("/api/auth/organization/set-active", { body: { organizationId: orgId } });
    const refused = await member.session.mutation("project.setPrimaryKey", { projectId: project.id, keyId: project.keys[0].id });
    expect(refused.error?.code).toBe("FORBIDDEN");
  });
});
