import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createOrganization, signUpVerified } from "../../../test/helpers/test-users";

describe("projects", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("creates a project with a DSN and API key, over tRPC and REST", async () => {
    const { session } = await signUpVerified(server);
    const org = await createOrganization(session);
    const created = await session.mutation("project.create", { name: "Shop API", platform: "NODE_JS", organizationId: "ignored" });
    expect(created.error).toBeUndefined();
    const project = created.data;
    expect(project.organizationId).toBe(org.id);
    expect(project.number).toBeGreaterThan(0);
    expect(project.apiKey).toMatch(/^[0-9a-f]{32}$/);
    expect(project.dsn).toBe(`http://${project.apiKey}@${new URL(server.url).host}/${project.number}`);

    const viaRest = await session.request(`/api/v1/organizations/${org.id}/projects/${project.id}`);
    expect(viaRest.status).toBe(200);
    expect(viaRest.body.dsn).toBe(project.dsn);

    const list = await session.request(`/api/v1/organizations/${org.id}/projects`);
    expect(list.body.map((p: { id: string }) => p.id)).toEqual([project.id]);

    const posted = await session.request(`/api/v1/organizations/${org.id}/projects`, { body: { name: "Web", platform: "REACT" } });
    expect(posted.status).toBe(201);
    const invalid = await session.request(`/api/v1/organizations/${org.id}/projects`, { body: { name: "", platform: "COBOL" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe("VALIDATION_ERROR");
  });

  it("rotates and revokes keys, keeping at least one active", async () => {
    const { session } = await signUpVerified(server);
    await createOrganization(session);
    const { data: project } = await session.mutation("project.create", { name: "Keys", platform: "PYTHON" });
    const [first] = project.keys;
    const rotated = await session.mutation("project.rotateKey", { projectId: project.id, keyId: first.id });
    expect(rotated.data.keys).toHaveLength(2);
    expect(rotated.data.apiKey).not.toBe(first.publicKey);
    const active = rotated.data.keys.find((key: { revokedAt: Date | null }) => !key.revokedAt);
    const revokeLast = await session.mutation("project.revokeKey", { projectId: project.id, keyId: active.id });
    expect(revokeLast.error?.code).toBe("CONFLICT");
  });

  it("refuses a rotated key, a revoked key and a deleted project's key at once, not a cache period later", async () => {
    const { session } = await signUpVerified(server);
    await createOrganization(session);
    const { data: project } = await session.mutation("project.create", { name: "Revocation", platform: "NODE_JS" });
    const ingest = (publicKey: string) => {
      const id = crypto.randomUUID().replaceAll("-", "");
      const body = `{"event_id":"${id}"}\n{"type":"event"}\n{"event_id":"${id}","message":"revocation"}\n`;
      return fetch(`${server.url}/api/${project.number}/envelope/?sentry_key=${publicKey}`, { method: "POST", body }).then((response) => response.status);
    };
    const [first] = project.keys;
    expect(await ingest(first.publicKey)).toBe(200);
    const rotated = (await session.mutation("project.rotateKey", { projectId: project.id, keyId: first.id })).data;
    expect(await ingest(first.publicKey)).toBe(401);
    const second = rotated.keys.find((key: { revokedAt: Date | null }) => !key.revokedAt);
    expect(await ingest(second.publicKey)).toBe(200);
    await session.mutation("project.createKey", { projectId: project.id, label: "spare" });
    expect((await session.mutation("project.revokeKey", { projectId: project.id, keyId: second.id })).error).toBeUndefined();
    expect(await ingest(second.publicKey)).toBe(401);
    const spare = (await session.query("project.get", { projectId: project.id })).data.keys.find((key: { label: string }) => key.label === "spare");
    expect(await ingest(spare.publicKey)).toBe(200);
    expect((await session.mutation("project.delete", { projectId: project.id })).error).toBeUndefined();
    expect(await ingest(spare.publicKey)).toBe(401);
  });

  it("hides another organization's projects behind NOT_FOUND", async () => {
    const a = await signUpVerified(server);
    const orgA = await createOrganization(a.session, "Org A");
    const { data: projectA } = await a.session.mutation("project.create", { name: "Secret", platform: "NODE_JS" });
    const b = await signUpVerified(server);
    await createOrganization(b.session, "Org B");
    const viaTrpc = await b.session.query("project.get", { projectId: projectA.id });
    expect(viaTrpc.error?.code).toBe("NOT_FOUND");
    const viaRest = await b.session.request(`/api/v1/organizations/${orgA.id}/projects/${projectA.id}`);
    expect(viaRest.status).toBe(404);
    expect(viaRest.text).not.toContain("Secret");
  });
});
