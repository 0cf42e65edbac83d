/**
 * The "new issue within N minutes after a deploy" trigger (issue 34) on the real app: ingest hands
 * the new issue to the evaluator, which fires the rule only when one of the project's releases had
 * a deploy finished at most N minutes before the issue was first seen.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpSession } from "../../../test/helpers/http-session";
import { seedDeploy, seedRelease } from "../../../test/helpers/release-seed";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createTriageProject, hoursAgo, sendEvent, triageTenant, type TriageProject } from "../../../test/helpers/triage-seed";
import { until } from "../../../test/alerts/alert-kit";
import { reasonForFact } from "./alert-filters";

describe("alert trigger: new issue after a deploy", () => {
  let server: TestServer;
  let session: HttpSession;
  let orgId: string;
  let deployed: TriageProject;
  let quiet: TriageProject;

  const log = async (project: TriageProject) =>
    (await session.request(`/api/v1/organizations/${orgId}/projects/${project.id}/notifications?size=100`)).body.items as {
      reason: string;
      issueTitle: string;
    }[];

  async function deployRule(project: TriageProject) {
    const rule = await session.request(`/api/v1/organizations/${orgId}/projects/${project.id}/alert-rules`, {
      method: "POST",
      body: { name: "After deploys", trigger: { type: "new_issue_after_deploy", minutes: 30 }, actions: [{ type: "email", to: "members" }] },
    });
    expect(rule.status, rule.text).toBe(201);
    expect(rule.body.trigger).toEqual({ type: "new_issue_after_deploy", minutes: 30 });
  }

  beforeAll(async () => {
    server = await startTestServer({ env: { ALERT_JOB_POLL_MS: "100" } });
    const tenant = await triageTenant(server, "Deploy Alerts");
    session = tenant.session;
    orgId = tenant.org.id;
    deployed = tenant.project;
    quiet = await createTriageProject(session, "Quiet project");
    const db = server.services.db;
    // `deployed`: its release went out 10 minutes ago. `quiet`: its own release 2 hours ago, and a
    // release of the other project only went out a minute ago — that deploy is not this project's.
    const fresh = await seedRelease(db, { organizationId: orgId, projectId: deployed.id, version: "web@2.0.0" });
    await seedDeploy(db, orgId, fresh, "production", new Date(Date.now() - 10 * 60_000));
    const old = await seedRelease(db, { organizationId: orgId, projectId: quiet.id, version: "api@1.0.0" });
    await seedDeploy(db, orgId, old, "production", hoursAgo(2));
    await seedDeploy(db, orgId, fresh, "staging", new Date(Date.now() - 60_000));
    await deployRule(deployed);
    await deployRule(quiet);
  }, 120_000);
  afterAll(() => server.close());

  it("fires for a new issue 10 minutes after the project's deploy", async () => {
    await sendEvent(server, deployed, { type: "DeployError", value: "broke", fn: "render" });
    const fired = await until(async () => (await log(deployed)).find((entry) => entry.reason === "new_issue_after_deploy"), 20_000, "deploy alert");
    expect(fired.issueTitle).toMatch(/^DeployError/);
  }, 60_000);

  it("does not fire two hours after the project's deploy, nor for another project's deploy", async () => {
    await sendEvent(server, quiet, { type: "QuietError", value: "old news", fn: "serve" });
    // The project's default rule (new issue) fires for it: the evaluation has run.
    await until(async () => (await log(quiet)).some((entry) => entry.reason === "new_issue"), 20_000, "default new-issue alert");
    expect((await log(quiet)).map((entry) => entry.reason)).not.toContain("new_issue_after_deploy");
  }, 60_000);

  it("needs minutes, and compares them with the minutes since the deploy", async () => {
    const refused = await session.request(`/api/v1/organizations/${orgId}/projects/${deployed.id}/alert-rules`, {
      method: "POST",
      body: { name: "No minutes", trigger: { type: "new_issue_after_deploy" }, actions: [{ type: "email", to: "members" }] },
    });
    expect(refused.status).toBe(400);
    const trigger = { type: "new_issue_after_deploy" as const, minutes: 15 };
    expect(reasonForFact(trigger, "new", { level: "error", minutesSinceDeploy: 15 })).toBe("new_issue_after_deploy");
    expect(reasonForFact(trigger, "new", { level: "error", minutesSinceDeploy: 15.5 })).toBeNull();
    expect(reasonForFact(trigger, "new", { level: "error", minutesSinceDeploy: null })).toBeNull();
    expect(reasonForFact(trigger, "regression", { level: "error", minutesSinceDeploy: 1 })).toBeNull();
  });
});
