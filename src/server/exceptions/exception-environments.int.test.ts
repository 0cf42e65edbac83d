import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { issueByType, sendEvents, triageTenant } from "../../../test/helpers/triage-seed";

/**
 * Issue 14 item 15: the exception list takes the same environment filter as the chart beside it
 * (tRPC and REST), with a total that counts only those environments.
 */
describe("exception list by environment", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;
  beforeAll(async () => {
    server = await startTestServer();
    tenant = await triageTenant(server, "Exception Envs");
    await sendEvents(server, tenant.project, [
      { type: "EnvError", value: "p", fn: "envHandler", environment: "production" },
      { type: "EnvError", value: "p", fn: "envHandler", environment: "prod" },
      { type: "EnvError", value: "s", fn: "envHandler", environment: "staging" },
      { type: "OtherError", value: "s", fn: "otherHandler", environment: "staging" },
      { type: "OtherError", value: "d", fn: "otherHandler", environment: "development" },
    ]);
  }, 60_000);
  afterAll(() => server.close());

  const list = async (input: Record<string, unknown>) => {
    const answer = await tenant.session.query("exception.list", { projectId: tenant.project.id, ...input });
    expect(answer.error).toBeUndefined();
    return answer.data as { items: { environment: string; environmentName: string }[]; meta: { totalItems: number; totalPages: number } };
  };

  it("lists and counts only the chosen environment buckets, for the project and for one issue", async () => {
    expect((await list({})).meta.totalItems).toBe(5);
    const production = await list({ environments: ["PRODUCTION"] });
    expect(production.items.map((item) => item.environmentName).sort()).toEqual(["prod", "production"]);
    expect(production.meta.totalItems).toBe(2);
    const staging = await list({ environments: ["STAGING", "DEVELOPMENT"], size: 2 });
    expect(staging.items).toHaveLength(2);
    expect(staging.items.every((item) => item.environment === "STAGING" || item.environment === "DEVELOPMENT")).toBe(true);
    expect(staging.meta).toMatchObject({ totalItems: 3, totalPages: 2 });

    const issue = await issueByType(tenant.session, tenant.project.id, "EnvError");
    const ofIssue = await list({ issueId: issue.id, environments: ["STAGING"] });
    expect(ofIssue.items.map((item) => item.environmentName)).toEqual(["staging"]);
    expect(ofIssue.meta.totalItems).toBe(1);
  });

  it("takes the filter on the REST twin and refuses an unknown environment", async () => {
    const url = `/api/v1/organizations/${tenant.org.id}/projects/${tenant.project.id}/exceptions`;
    const filtered = await tenant.session.request(`${url}?environments=DEVELOPMENT`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.meta.totalItems).toBe(1);
    expect(filtered.body.items[0].environmentName).toBe("development");
    const invalid = await tenant.session.request(`${url}?environments=MARS`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe("VALIDATION_ERROR");
  });
});
