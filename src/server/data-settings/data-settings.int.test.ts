/**
 * Data settings (issue 35) over REST and tRPC: the organization's layer and a project's overrides,
 * what each answers as effective, input refused with 400s, another organization's ids answering
 * NOT_FOUND, a member reading but not changing them, and retention capped by the plan on the
 * hosted deployment.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { occurrences, subscriptions } from "../db/schema/index";
import { HOSTED_ENV_WITHOUT_STRIPE } from "../../../test/helpers/billing-server";
import { addMember } from "../../../test/auth/org-kit";
import type { HttpSession } from "../../../test/helpers/http-session";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { triageTenant, type TriageProject } from "../../../test/helpers/triage-seed";
import { MAX_SCRUB_RULES } from "../../shared/data-settings.inputs";

const PRODUCT_DEFAULTS = { retentionDays: 90, scrubDefaults: true, storeIpAddresses: true, sensitiveFields: [], safeFields: [], rules: [] };
const EMPTY_LAYER = { retentionDays: null, scrubDefaults: null, storeIpAddresses: null, sensitiveFields: null, safeFields: null, rules: null };
const SELF_HOSTED_RETENTION = { productDefault: 90, plan: null, planCap: null, capped: false };
const RETENTION_MESSAGE = "retentionDays is a whole number of days from 1 to 3650";

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
      settings: EMPTY_LAYER,
      effective: PRODUCT_DEFAULTS,
      retention: SELF_HOSTED_RETENTION,
      scrubbedToday: 0,
    });
    const proj = await owner.request(projectUrl);
    expect(proj.status).toBe(200);
    expect(proj.body.effective).toEqual(PRODUCT_DEFAULTS);
    expect(proj.body.overrides.rules).toBeNull();
    expect(proj.body.retention).toEqual(SELF_HOSTED_RETENTION);
  });

  it("stores the organization's layer and the project's overrides; a project inherits what it leaves null", async () => {
    const rules = [
      { type: "pattern", pattern: "cus_[A-Za-z0-9]+", method: "hash" },
      { type: "email", method: "replace", replacement: "<email>" },
    ];
    const org = await owner.request(orgUrl, { method: "PUT", body: { retentionDays: 60, storeIpAddresses: false, sensitiveFields: ["phone"], rules } });
    expect(org.status, org.text).toBe(200);
    expect(org.body.effective).toEqual({ ...PRODUCT_DEFAULTS, retentionDays: 60, storeIpAddresses: false, sensitiveFields: ["phone"], rules });
    expect(org.body.settings.retentionDays).toBe(60);
    expect(org.body.settings.scrubDefaults).toBeNull();

    const proj = await owner.request(projectUrl, { method: "PUT", body: { safeFields: ["auth_mode"], storeIpAddresses: null, projectId: other.project.id } });
    expect(proj.status, proj.text).toBe(200);
    // The path's project wins over one named in the body.
    expect(proj.body.projectId).toBe(project.id);
    expect(proj.body.overrides).toEqual({ ...EMPTY_LAYER, safeFields: ["auth_mode"] });
    expect(proj.body.organization.storeIpAddresses).toBe(false);
    expect(proj.body.effective).toEqual({
      retentionDays: 60,
      scrubDefaults: true,
      storeIpAddresses: false,
      sensitiveFields: ["phone"],
      safeFields: ["auth_mode"],
      rules,
    });

    // tRPC answers the same from the same service.
    const viaTrpc = await owner.query("dataSettings.project", { projectId: project.id });
    expect(viaTrpc.data).toEqual(proj.body);
    // The other organization's project is untouched.
    const untouched = await other.session.request(`/api/v1/organizations/${other.org.id}/projects/${other.project.id}/data-settings`);
    expect(untouched.body.effective).toEqual(PRODUCT_DEFAULTS);

    // A project's own days win over the organization's; null inherits them again.
    const shorter = await owner.request(projectUrl, { method: "PUT", body: { retentionDays: 14, safeFields: ["auth_mode"] } });
    expect(shorter.status, shorter.text).toBe(200);
    expect(shorter.body.overrides.retentionDays).toBe(14);
    expect(shorter.body.organization.retentionDays).toBe(60);
    expect(shorter.body.effective.retentionDays).toBe(14);
    const inherits = await owner.mutation("dataSettings.updateProject", { projectId: project.id, retentionDays: null, safeFields: ["auth_mode"] });
    expect(inherits.data.effective.retentionDays).toBe(60);
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
    ["zero retention days", { retentionDays: 0 }, RETENTION_MESSAGE],
    ["more than ten years of retention", { retentionDays: 3651 }, RETENTION_MESSAGE],
    ["a fraction of a day", { retentionDays: 1.5 }, RETENTION_MESSAGE],
    ["days as a string", { retentionDays: "30" }, RETENTION_MESSAGE],
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

describe("data settings' retention on the hosted deployment (issue 35)", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;
  let orgUrl: string;
  let projectUrl: string;
  beforeAll(async () => {
    server = await startTestServer({
      env: { ...HOSTED_ENV_WITHOUT_STRIPE, RETENTION_DAYS: "60", PLAN_FREE_RETENTION_DAYS: "30", PLAN_PLUS_RETENTION_DAYS: "180" },
    });
    tenant = await triageTenant(server, "Retention Cloud");
    orgUrl = `/api/v1/organizations/${tenant.org.id}/data-settings`;
    projectUrl = `/api/v1/organizations/${tenant.org.id}/projects/${tenant.project.id}/data-settings`;
  });
  afterAll(() => server.close());

  it("caps the product default by the free plan and says so", async () => {
    const org = await tenant.session.request(orgUrl);
    expect(org.status, org.text).toBe(200);
    expect(org.body.effective.retentionDays).toBe(30);
    expect(org.body.retention).toEqual({ productDefault: 60, plan: "free", planCap: 30, capped: true });
  });

  it("stores days above the plan's cap as asked, applies the cap, and applies them once the plan allows", async () => {
    const org = await tenant.session.request(orgUrl, { method: "PUT", body: { retentionDays: 365 } });
    expect(org.status, org.text).toBe(200);
    expect(org.body.settings.retentionDays).toBe(365);
    expect(org.body.effective.retentionDays).toBe(30);
    expect(org.body.retention.capped).toBe(true);
    const project = await tenant.session.request(projectUrl, { method: "PUT", body: { retentionDays: 20 } });
    expect(project.body.effective.retentionDays).toBe(20);
    expect(project.body.organization.retentionDays).toBe(30);
    expect(project.body.retention).toEqual({ productDefault: 60, plan: "free", planCap: 30, capped: false });

    await server.database.db.insert(subscriptions).values({ id: `sub_${crypto.randomUUID()}`, organizationId: tenant.org.id, plan: "plus", status: "active" });
    const upgraded = await tenant.session.request(orgUrl);
    expect(upgraded.body.effective.retentionDays).toBe(180);
    expect(upgraded.body.retention).toEqual({ productDefault: 60, plan: "plus", planCap: 180, capped: true });
    const within = await tenant.session.request(orgUrl, { method: "PUT", body: { retentionDays: 100 } });
    expect(within.body.effective.retentionDays).toBe(100);
    expect(within.body.retention.capped).toBe(false);
  });
});
