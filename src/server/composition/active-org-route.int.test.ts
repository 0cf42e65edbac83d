import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProbeApp, type ProbeApp } from "../../../test/helpers/probe-app";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createOrganization, lastMail, signUpVerified, uniqueEmail } from "../../../test/helpers/test-users";
import { activeOrgRoute } from "./rest-access";

/**
 * The wrapper for session-scoped paths with no organization id (the spec's
 * /api/v1/ai/agents/conversations), on a test-only route over the real app's services and a real
 * better-auth session. Its answers must match orgProcedure's for the same session.
 */
describe("activeOrgRoute", () => {
  let server: TestServer;
  let probe: ProbeApp;
  beforeAll(async () => {
    server = await startTestServer();
    probe = await startProbeApp((app) => {
      app.get(
        "/probe",
        activeOrgRoute(server.services, async (ctx) => ({ org: ctx.org, userId: ctx.session?.user.id })),
      );
      app.post(
        "/probe",
        activeOrgRoute(server.services, async (ctx, req) => ({ org: ctx.org, body: req.body }), 201),
      );
    });
  });
  afterAll(async () => {
    await probe.close();
    await server.close();
  });

  it("answers 401 when signed out, like orgProcedure", async () => {
    const rest = await probe.as().request("/probe");
    expect(rest.status).toBe(401);
    expect(rest.body.error).toMatchObject({ code: "UNAUTHORIZED", message: "Unauthorized" });
    const { session } = await signUpVerified(server);
    await session.request("/api/auth/sign-out", { method: "POST" });
    const trpc = await session.query("project.list");
    expect(trpc.error).toMatchObject({ code: "UNAUTHORIZED", httpStatus: 401, message: rest.body.error.message });
  });

  it("answers what orgProcedure answers when the session has no active organization", async () => {
    const { session } = await signUpVerified(server);
    const rest = await probe.as(session).request("/probe");
    const trpc = await session.query("project.list");
    expect(rest.status).toBe(404);
    expect(rest.body.error).toMatchObject({ code: "NOT_FOUND", message: "No active organization" });
    expect(trpc.error).toMatchObject({ code: rest.body.error.code, httpStatus: rest.status, message: rest.body.error.message });
  });

  it("acts in the session's active organization, following set-active", async () => {
    const { session, userId } = await signUpVerified(server);
    const first = await createOrganization(session, "First");
    const second = await createOrganization(session, "Second");
    const inSecond = await probe.as(session).request("/probe");
    expect(inSecond.status).toBe(200);
    expect(inSecond.body).toEqual({ org: { organizationId: second.id, userId, role: "owner" }, userId });

    await session.request("/api/auth/organization/set-active", { body: { organizationId: first.id } });
    const posted = await probe.as(session).request("/probe", { body: { organizationId: second.id, note: "x" } });
    expect(posted.status).toBe(201);
    // A body naming another organization moves nothing: the session decides.
    expect(posted.body.org.organizationId).toBe(first.id);
  });

  it("answers NOT_FOUND to a member removed while their session still names the organization", async () => {
    const owner = await signUpVerified(server, { name: "Owner" });
    const org = await createOrganization(owner.session, "Removal");
    const email = uniqueEmail("removed");
    const invited = await owner.session.request("/api/auth/organization/invite-member", { body: { email, role: "member", organizationId: org.id } });
    expect(invited.status, invited.text).toBe(200);
    const invitationId = new URL(lastMail(server, email, "invitation").actionUrl).searchParams.get("invitationId");
    const member = await signUpVerified(server, { email });
    const accepted = await member.session.request("/api/auth/organization/accept-invitation", { body: { invitationId } });
    expect(accepted.status, accepted.text).toBe(200);

    const asMember = await probe.as(member.session).request("/probe");
    expect(asMember.status).toBe(200);
    expect(asMember.body.org).toEqual({ organizationId: org.id, userId: member.userId, role: "member" });

    const removed = await owner.session.request("/api/auth/organization/remove-member", { body: { memberIdOrEmail: email, organizationId: org.id } });
    expect(removed.status, removed.text).toBe(200);
    expect((await member.session.request("/api/auth/get-session")).body.session.activeOrganizationId).toBe(org.id);

    const rest = await probe.as(member.session).request("/probe");
    const trpc = await member.session.query("project.list");
    expect(rest.status).toBe(404);
    expect(rest.body.error).toMatchObject({ code: "NOT_FOUND", message: "Organization not found" });
    expect(rest.text).not.toContain("Removal");
    expect(trpc.error).toMatchObject({ code: "NOT_FOUND", httpStatus: 404, message: rest.body.error.message });
  });
});
