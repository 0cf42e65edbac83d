/**
 * Data settings (issue 35) over REST and tRPC: the organization's layer and a project's overrides,
 * what each answers as effective, input refused with 400s, another organization's ids answering
 * NOT_FOUND, and a member reading but not changing them.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { occurrences } from "../db/schema/index";
import { addMember } from "../../../test/auth/org-kit";
import type { HttpSession } from "../../../test/helpers/http-session";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { triageTenant, type TriageProject } from "../../../test/helpers/triage-seed";
import { MAX_SCRUB_RULES } from "../../shared/data-settings.inputs";

const PRODUCT_DEFAULTS = { scrubDefaults: true, storeIpAddresses: true, sensitiveFields: [], safeFields: [], rules: [] };

describe("data settings (issue 35)", () => {
  let server: TestServer;
  let owner: HttpSession;
  let member: HttpSession;
  let orgId: string;
  let project: TriageProject;
  let other: Awaited<ReturnType<typeof triageTenant>>;
  let orgUrl: string;
  let projectUrl: string;

  beforeAll(async () => {
    server = await startTestServer();
    const tenant = await triageTenant(server, "Scrub");
    ({ session: owner, project } = tenant);
    orgId = tenant.org.id;
    other = await triageTenant(server, "Scrub Other");
    member = (await addMember(server, owner, orgId, "member")).session;
    orgUrl = `/api/v1/organizations/${orgId}/data-settings`;
    projectUrl = `/api/v1/organizations/${orgId}/projects/${project.id}/data-settings`;
  });
  afterAll(() => server.close());

  it("answers the product defaults before anything is set", async () => {
    const org = await owner.request(orgUrl);
    expect(org.status, org.text).toBe(200);
    expect(org.body).toEqual({
      settings: { scrubDefaults: null, storeIpAddresses: null, sensitiveFields: null, safeFields: null, rules: null },
      effective: PRODUCT_DEFAULTS,
      scrubbedToday: 0,
    });
    const proj = await owner.request(projectUrl);
    expect(proj.status).toBe(200);
    expect(proj.body.effective).toEqual(PRODUCT_DEFAULTS);
    expect(proj.body.overrides.rules).toBeNull();
  });

  it("stores the organization's layer and the project's overrides; a project inherits what it leaves null", async () => {
    const rules = [
      { type: "pattern", pattern: "cus_[A-Za-z0-9]+", method: "hash" },
      { type: "email", method: "replace", replacement: "<email>" },
    ];
    const org = await owner.request(orgUrl, { method: "PUT", body: { storeIpAddresses: false, sensitiveFields: ["phone"], rules } });
    expect(org.status, org.text).toBe(200);
    expect(org.body.effective).toEqual({ ...PRODUCT_DEFAULTS, storeIpAddresses: false, sensitiveFields: ["phone"], rules });
    expect(org.body.settings.scrubDefaults).toBeNull();

    const proj = await owner.request(projectUrl, { method: "PUT", body: { safeFields: ["auth_mode"], storeIpAddresses: null, projectId: other.project.id } });
    expect(proj.status, proj.text).toBe(200);
    // The path's project wins over one named in the body.
    expect(proj.body.projectId).toBe(project.id);
    expect(proj.body.overrides).toEqual({ scrubDefaults: null, storeIpAddresses: null, sensitiveFields: null, safeFields: ["auth_mode"], rules: null });
    expect(proj.body.organization.storeIpAddresses).toBe(false);
    expect(proj.body.effective).toEqual({ scrubDefaults: true, storeIpAddresses: false, sensitiveFields: ["phone"], safeFields: ["auth_mode"], rules });

    // tRPC answers the same from the same service.
    const viaTrpc = await owner.query("dataSettings.project", { projectId: project.id });
    expect(viaTrpc.data).toEqual(proj.body);
    // The other organization's project is untouched.
    const untouched = await other.session.request(`/api/v1/organizations/${other.org.id}/projects/${other.project.id}/data-settings`);
    expect(untouched.body.effective).toEqual(PRODUCT_DEFAULTS);
  });

  it.each([
    ["a pattern that is no regular expression", { rules: [{ type: "pattern", pattern: "([a-z", method: "remove" }] }, "not a valid regular expression"],
    ["a pattern rule without a pattern", { rules: [{ type: "pattern", method: "remove" }] }, "needs a pattern"],
    ["replace without a replacement", { rules: [{ type: "email", method: "replace" }] }, "needs a replacement"],
    ["a backreference (no linear-time run)", { rules: [{ type: "pattern", pattern: "(a+)\\1", method: "remove" }] }, "linear time"],
    ["a pattern longer than 200 characters", { rules: [{ type: "pattern", pattern: "a".repeat(201), method: "remove" }] }, "at most 200"],
    ["too many rules", { rules: Array.from({ length: MAX_SCRUB_RULES + 1 }, () => ({ type: "email", method: "remove" })) }, `At most ${MAX_SCRUB_RULES} rules`],
    ["too many field names", { safeFields: Array.from({ length: 51 }, (_, i) => `f${i}`) }, "At most 50 field names"],
    ["an unknown method", { rules: [{ type: "email", method: "encrypt" }] }, "method is one of"],
  ])("refuses %s with 400 and says why", async (_what, body, message) => {
    for (const url of [orgUrl, projectUrl]) {
      const answer = await owner.request(url, { method: "PUT", body });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.text).toContain(message);
    }
  });

  it("answers NOT_FOUND for another organization's ids", async () => {
    const foreignOrg = `/api/v1/organizations/${other.org.id}/data-settings`;
    expect((await owner.request(foreignOrg)).status).toBe(404);
    expect((await owner.request(foreignOrg, { method: "PUT", body: { scrubDefaults: false } })).status).toBe(404);
    const foreignProject = `/api/v1/organizations/${orgId}/projects/${other.project.id}/data-settings`;
    expect((await owner.request(foreignProject)).status).toBe(404);
    expect((await owner.request(foreignProject, { method: "PUT", body: { scrubDefaults: false } })).status).toBe(404);
    expect((await owner.query("dataSettings.project", { projectId: other.project.id })).error?.code).toBe("NOT_FOUND");
    const still = await other.session.request(`/api/v1/organizations/${other.org.id}/data-settings`);
    expect(still.body.effective.scrubDefaults).toBe(true);
  });

  it("lets a member read but not change them", async () => {
    expect((await member.request(orgUrl)).status).toBe(200);
    expect((await member.request(projectUrl)).status).toBe(200);
    expect((await member.request(orgUrl, { method: "PUT", body: { scrubDefaults: false } })).status).toBe(403);
    expect((await member.request(projectUrl, { method: "PUT", body: { scrubDefaults: false } })).status).toBe(403);
    expect((await member.mutation("dataSettings.updateOrganization", { scrubDefaults: false })).error?.code).toBe("FORBIDDEN");
    expect((await owner.request(orgUrl)).body.effective.scrubDefaults).toBe(true);
  });

  it("scrubs the native SDK's exceptions by the same settings (the organization's: IPs off, emails replaced)", async () => {
    const response = await fetch(`${server.url}/api/v1/exceptions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": project.apiKey },
      body: JSON.stringify({
        environment: "PRODUCTION",
        name: "PaymentError",
        message: "card 4111 1111 1111 1111 of ada@example.com declined",
        httpContext: { url: "https://shop.test/pay?token=abc", method: "POST", clientIp: "203.0.113.9" },
      }),
    });
    expect(response.status, await response.text()).toBe(201);
    const [row] = await server.services.db.select().from(occurrences).where(eq(occurrences.projectId, project.id));
    const data = row.data as Record<string, any>;
    expect(data.exceptions[0].value).toBe("card [Filtered] of <email> declined");
    expect(JSON.stringify(data)).not.toContain("203.0.113.9");
    expect(data.request.url).toBe("https://shop.test/pay?token=%5BFiltered%5D");
  });
});
