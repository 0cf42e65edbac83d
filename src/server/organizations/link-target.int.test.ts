import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversations } from "../db/schema/index";
import { orgPost } from "../../../test/auth/org-kit";
import { HttpSession } from "../../../test/helpers/http-session";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { issueByType, sendEvent, triageTenant } from "../../../test/helpers/triage-seed";
import { lastMail } from "../../../test/helpers/test-users";
import type { LinkTargetKind } from "../../shared/link.inputs";

/**
 * Issue 37, item 1: link.locate answers which of the CALLER's organizations holds what a link
 * names, whichever organization is active, so the screens can switch to it. Anyone who is not a
 * member of that organization gets NOT_FOUND, exactly as for an id nobody holds.
 */
describe("link.locate", () => {
  let server: TestServer;
  let a: Awaited<ReturnType<typeof triageTenant>>;
  let b: Awaited<ReturnType<typeof triageTenant>>;
  let outsider: Awaited<ReturnType<typeof triageTenant>>;
  let bTargets: Record<LinkTargetKind, string>;
  let bOwnersChat: string;

  const chatOf = async (organizationId: string, projectId: string, ownerUserId: string) => {
    const id = crypto.randomUUID();
    await server.database.db.insert(conversations).values({ id, organizationId, projectId, ownerUserId, title: "a chat", dateFrom: null, dateTo: null });
    return id;
  };

  beforeAll(async () => {
    server = await startTestServer();
    a = await triageTenant(server, "Link A");
    b = await triageTenant(server, "Link B");
    outsider = await triageTenant(server, "Link Outsider");
    // A's user also joins B, and keeps A active.
    const invited = await orgPost(b.session, "invite-member", { email: a.email, role: "member", organizationId: b.org.id });
    expect(invited.status, invited.text).toBe(200);
    const invitationId = new URL(lastMail(server, a.email, "invitation").actionUrl).searchParams.get("invitationId");
    const accepted = await orgPost(a.session, "accept-invitation", { invitationId });
    expect(accepted.status, accepted.text).toBe(200);
    await orgPost(a.session, "set-active", { organizationId: a.org.id });

    await sendEvent(server, b.project, { type: "LinkedError", value: "in B", fn: "linkedHandler" });
    const issue = await issueByType(b.session, b.project.id, "LinkedError");
    const exceptions = await b.session.query("exception.list", { projectId: b.project.id, issueId: issue.id });
    bTargets = {
      issue: issue.id,
      exception: exceptions.data.items[0].id,
      project: b.project.id,
      chat: await chatOf(b.org.id, b.project.id, a.userId),
    };
    bOwnersChat = await chatOf(b.org.id, b.project.id, b.userId);
  }, 90_000);
  afterAll(() => server.close());

  it("answers the organization holding an issue, exception, project or chat of another of the caller's organizations", async () => {
    for (const [kind, id] of Object.entries(bTargets)) {
      const located = await a.session.query("link.locate", { kind, id });
      expect(located.error, kind).toBeUndefined();
      expect(located.data, kind).toEqual({ organizationId: b.org.id });
    }
    // It only answers: the session's active organization is still A.
    const session = await a.session.request("/api/auth/get-session");
    expect(session.body.session.activeOrganizationId).toBe(a.org.id);
    expect((await a.session.query("link.locate", { kind: "project", id: a.project.id })).data).toEqual({ organizationId: a.org.id });
  });

  it("answers NOT_FOUND to a non-member, for another member's chat and for unknown ids; UNAUTHORIZED without a session", async () => {
    for (const [kind, id] of Object.entries(bTargets)) {
      const refused = await outsider.session.query("link.locate", { kind, id });
      expect(refused.error?.code, kind).toBe("NOT_FOUND");
      expect(JSON.stringify(refused)).not.toContain(b.org.id);
      expect((await new HttpSession(server.url).query("link.locate", { kind, id })).error?.code, kind).toBe("UNAUTHORIZED");
      expect((await a.session.query("link.locate", { kind, id: crypto.randomUUID() })).error?.code, kind).toBe("NOT_FOUND");
    }
    // A conversation is its owner's: a fellow member of B cannot locate it.
    expect((await a.session.query("link.locate", { kind: "chat", id: bOwnersChat })).error?.code).toBe("NOT_FOUND");
    expect((await b.session.query("link.locate", { kind: "chat", id: bOwnersChat })).data).toEqual({ organizationId: b.org.id });
    // An id of one kind is not found as another.
    expect((await a.session.query("link.locate", { kind: "issue", id: bTargets.project })).error?.code).toBe("NOT_FOUND");
    expect((await a.session.query("link.locate", { kind: "issue", id: "not-a-uuid" })).error?.code).toBe("BAD_REQUEST");
  });

  it("stops answering once the caller leaves the organization", async () => {
    const left = await orgPost(a.session, "leave", { organizationId: b.org.id });
    expect(left.status, left.text).toBe(200);
    expect((await a.session.query("link.locate", { kind: "issue", id: bTargets.issue })).error?.code).toBe("NOT_FOUND");
  });
});
