import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envelopeFor } from "../helpers/ingest-load";
import { seedProject } from "../helpers/seed";
import { startTestServer, type TestServer } from "../helpers/test-server";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Quota Q per window: accepted ≤ Q, the rest 429 with both headers, whichever store counts. */
describe.each([
  ["the database", {}],
  ["Redis", { REDIS_URL }],
] as const)("ingest rate limits counted in %s", (_name, extraEnv) => {
  let server: TestServer;
  let project: Awaited<ReturnType<typeof seedProject>>;
  beforeAll(async () => {
    server = await startTestServer({
      env: { ...extraEnv, INGEST_PROJECT_RATE_LIMIT: "5", INGEST_KEY_RATE_LIMIT: "100", INGEST_RATE_LIMIT_WINDOW_SECONDS: "3600" },
    });
    project = await seedProject(server.database.db, "quota");
  });
  afterAll(() => server.close());

  it("accepts at most Q events per window and answers the rest 429 with Retry-After and X-Sentry-Rate-Limits", async () => {
    const url = `${server.url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`;
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, n) => fetch(url, { method: "POST", body: envelopeFor(crypto.randomUUID().replaceAll("-", ""), n) })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    const limited = responses.find((response) => response.status === 429)!;
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(limited.headers.get("x-sentry-rate-limits")).toMatch(new RegExp(`^${retryAfter}:error;default;[a-z;]+:project$`));
  });
});
