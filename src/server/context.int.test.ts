import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer, type TestServer } from "../../test/helpers/test-server";
import { signUpVerified } from "../../test/helpers/test-users";
import { ScopedAsyncLocalStorage } from "./auth/scoped-async-storage";
import { createRequestContext } from "./context";
import { createTestDatabase, type TestDatabase } from "../../test/helpers/test-database";
import { JobQueue } from "./jobs/job-queue";
import { JOBS } from "./jobs/job-registry";
import { createLogger } from "./logger";

describe("the request context", () => {
  let server: TestServer;
  let database: TestDatabase;
  /** A queue the caller brought: the one the app runs its jobs on and hands to every request. */
  let queue: JobQueue;
  beforeAll(async () => {
    database = await createTestDatabase();
    queue = new JobQueue(JOBS, database.db, createLogger("silent"));
    server = await startTestServer({ database, outside: { jobs: queue } });
  });
  afterAll(async () => {
    await server.close();
    await queue.close();
    await database.destroy();
  });

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

  it("leaves better-auth's storages (ours, scoped) inactive between requests, so no promise hooks stay installed", async () => {
    const { session } = await signUpVerified(server);
    // Put there by createAuth, before better-auth could make plain ones.
    const context = (globalThis as unknown as Record<symbol, { context: Record<string, unknown> }>)[Symbol.for("better-auth:global")].context;
    const storages = [context.endpointContextAsyncStorage, context.requestStateAsyncStorage, context.adapterAsyncStorage] as ScopedAsyncLocalStorage<unknown>[];
    for (const storage of storages) expect(storage).toBeInstanceOf(ScopedAsyncLocalStorage);
    const runs = storages.map((storage) => vi.spyOn(storage, "run"));
    const ctx = await createRequestContext(server.services, { headers: { cookie: session.cookieHeader() } });
    expect(ctx.session).not.toBeNull();
    // better-auth ran in them (it did not make its own) ...
    expect(runs[0]).toHaveBeenCalled();
    // ... and none stays enabled afterwards.
    expect(storages.map((storage) => storage.active)).toEqual([false, false, false]);
  });
});
