import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/helpers/test-server";
import { signUpVerified } from "../../test/helpers/test-users";
import { createRequestContext } from "./context";
import type { JobQueue } from "./jobs/job-queue";

/** Only its identity matters here: the real queue arrives with the background-work feature. */
const queue: JobQueue = { enqueue: async () => null, work: async () => {}, close: async () => {} };

describe("the request context", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ outside: { jobs: queue } });
  });
  afterAll(() => server.close());

  it("carries the outside systems createApp was given, and leaves the ones not configured absent", async () => {
    const ctx = await createRequestContext(server.services, { headers: {}, id: "ctx-test-0001" });
    expect(ctx.jobs).toBe(queue);
    expect(ctx.mailer).toBe(server.mailer);
    expect(ctx.modelProvider).toBeUndefined();
    expect(ctx.waf).toBeUndefined();
    expect(ctx.billing).toBeUndefined();
    expect(ctx.requestId).toBe("ctx-test-0001");
    expect(ctx.session).toBeNull();
  });

  it("resolves the session from the request's cookies alone", async () => {
    const { session, userId } = await signUpVerified(server);
    const ctx = await createRequestContext(server.services, { headers: { cookie: session.cookieHeader() } });
    expect(ctx.session?.user.id).toBe(userId);
    expect(ctx.session?.session.activeOrganizationId ?? null).toBeNull();
  });
});
