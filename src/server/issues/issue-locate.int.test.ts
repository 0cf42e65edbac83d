import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../../../test/helpers/http-session";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createTriageProject, issueByType, sendEvent, triageTenant } from "../../../test/helpers/triage-seed";
import { signUpVerified } from "../../../test/helpers/test-users";

/**
 * Issue 14 item 17: an issue link without `?projectId=` is resolved on the server. issue.locate
 * answers the project of one of the caller's organization's issues, and NOT_FOUND for any other.
 */
describe("issue.locate", () => {
  let server: TestServer;
  let a: Awaited<ReturnType<typeof triageTenant>>;
  let b: Awaited<ReturnType<typeof triageTenant>>;
  beforeAll(async () => {
    server = await startTestServer();
    a = await triageTenant(server, "Locate A");
    b = await triageTenant(server, "Locate B");
  }, 60_000);
  afterAll(() => server.close());

  it("answers the project of an issue in the caller's organization, whichever project it is", async () => {
    const second = await createTriageProject(a.session, "Locate A second");
    await sendEvent(server, second, { type: "LocateError", value: "in the second project", fn: "locateHandler" });
    const issue = await issueByType(a.session, second.id, "LocateError");
    const located = await a.session.query("issue.locate", { issueId: issue.id });
    expect(located.error).toBeUndefined();
    expect(located.data).toEqual({ projectId: second.id });
  });

  it("answers NOT_FOUND for another organization's issue and an unknown id, UNAUTHORIZED without a session", async () => {
    await sendEvent(server, b.project, { type: "ForeignError", value: "in B", fn: "foreignHandler" });
    const foreign = await issueByType(b.session, b.project.id, "ForeignError");
    expect((await a.session.query("issue.locate", { issueId: foreign.id })).error?.code).toBe("NOT_FOUND");
    expect((await a.session.query("issue.locate", { issueId: crypto.randomUUID() })).error?.code).toBe("NOT_FOUND");
    const outsider = (await signUpVerified(server, { name: "Locate Outsider" })).session;
    expect((await outsider.query("issue.locate", { issueId: foreign.id })).error?.code).toBe("NOT_FOUND");
    expect((await new HttpSession(server.url).query("issue.locate", { issueId: foreign.id })).error?.code).toBe("UNAUTHORIZED");
    expect((await a.session.query("issue.locate", { issueId: "not-a-uuid" })).error?.code).toBe("BAD_REQUEST");
    // B still finds its own.
    expect((await b.session.query("issue.locate", { issueId: foreign.id })).data).toEqual({ projectId: b.project.id });
  });
});
