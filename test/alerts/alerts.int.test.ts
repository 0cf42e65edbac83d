import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifySignature } from "../../src/server/alerts/channels/webhook";
import { executeRows } from "../../src/server/db/execute";
import { TARGET_NOT_ALLOWED } from "../../src/server/outbound/outbound-http";
import { startSmtpCatcher, type SmtpCatcher } from "../auth/smtp-catcher";
import type { HttpSession } from "../helpers/http-session";
import { runSentryNode } from "../helpers/run-sentry-node";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization } from "../helpers/test-users";
import { signUpThroughSmtp, startTripwire, startWebhookReceiver, until, type WebhookReceiver } from "./alert-kit";

/**
 * Issue 18 end to end on the real app: a real @sentry/node program's errors go through ingest,
 * the after-commit hand-off, the database job queue and the storm guard, and come out as one
 * email (SMTP catcher), one signed webhook and one Slack body (a local receiver). Loopback only.
 */
describe("alerts", () => {
  let server: TestServer;
  let smtp: SmtpCatcher;
  let receiver: WebhookReceiver;
  let tripwire: Awaited<ReturnType<typeof startTripwire>>;
  let owner: { session: HttpSession; email: string; userId: string };
  let project: { id: string; dsn: string; number: number; apiKey: string };
  let orgId: string;
  let webhookSecret: string;
  let hookRuleId: string;

  const rest = (path: string) => `/api/v1/organizations/${orgId}/projects/${project.id}${path}`;
  const log = async () => (await owner.session.request(rest("/notifications?size=100"))).body.items as Record<string, unknown>[];
  const hooks = (path: string) => receiver.requests.filter((request) => request.path === path);
  const issueIdOf = async (type: string) => {
    const { data } = await owner.session.query("issue.list", { projectId: project.id });
    return (data.items as { id: string; title: string }[]).find((issue) => issue.title.startsWith(type))?.id;
  };

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    receiver = await startWebhookReceiver();
    tripwire = await startTripwire();
    server = await startTestServer({
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, OUTBOUND_ALLOW: `127.0.0.1:${receiver.port}`, ALERT_JOB_POLL_MS: "100" },
      outside: { alertOptions: { frequencyCheckMs: 200 } },
    });
    owner = await signUpThroughSmtp(server, smtp, "Alert Owner");
    orgId = (await createOrganization(owner.session, "Alerting Org")).id;
    const created = await owner.session.mutation("project.create", { name: "Shop <@everyone>", platform: "NODE_JS" });
    project = created.data;
    const rule = await owner.session.request(rest("/alert-rules"), {
      method: "POST",
      body: {
        name: "Hooks",
        trigger: { type: "new_issue", includeRegressions: true },
        actions: [
          { type: "webhook", url: `http://127.0.0.1:${receiver.port}/webhook` },
          { type: "slack", url: `http://127.0.0.1:${receiver.port}/slack` },
        ],
      },
    });
    expect(rule.status, rule.text).toBe(201);
    hookRuleId = rule.body.id;
    webhookSecret = rule.body.actions[0].secret;
    expect(webhookSecret).toMatch(/^whsec_/);
    // The URL is a credential: the rule shows its host only, and the secret only this once.
    expect(rule.body.actions[1]).toEqual({ id: expect.any(String), type: "slack", urlHost: `http://127.0.0.1:${receiver.port}` });
    const again = await owner.session.request(rest(`/alert-rules/${hookRuleId}`));
    expect(JSON.stringify(again.body)).not.toContain("whsec_");
    expect(JSON.stringify(again.body)).not.toContain("/webhook");
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    tripwire?.close();
    await smtp?.close();
  });

  it("a new issue from a real @sentry/node program → one email, one signed webhook, one Slack body", async () => {
    await runSentryNode(project.dsn, 3, "plain", { environment: "production" });
    const mail = await smtp.waitFor(owner.email, (entry) => entry.subject.includes("New issue"), 20_000);
    expect(mail.subject).toContain("TypeError");
    const issueId = await until(() => issueIdOf("TypeError"), 5000, "issue");
    expect(mail.links.some((link) => link.endsWith(`/dashboard/issues/${issueId}?projectId=${project.id}`))).toBe(true);
    await until(() => hooks("/webhook").length >= 1 && hooks("/slack").length >= 1, 20_000, "webhook and slack");

    const [hook] = hooks("/webhook");
    expect(verifySignature(webhookSecret, hook.raw, String(hook.headers["faultline-signature"]))).toBe(true);
    expect(verifySignature("whsec_wrong", hook.raw, String(hook.headers["faultline-signature"]))).toBe(false);
    expect(hook.json).toMatchObject({
      type: "new_issue",
      rule: { id: hookRuleId, name: "Hooks" },
      issue: { id: issueId, level: "error", status: "OPEN", environment: "production", release: "sdk-test@1.0.0" },
      project: { id: project.id, name: "Shop <@everyone>" },
      test: false,
    });
    expect((hook.json.issue as { title: string }).title).toContain("Cannot find order");

    const [slack] = hooks("/slack");
    const blocks = slack.json.blocks as { type: string; text?: { type: string; text: string } }[];
    expect(blocks[0]).toMatchObject({ type: "header", text: { type: "plain_text" } });
    expect(JSON.stringify(slack.json)).not.toContain("@everyone");
    expect(String(slack.json.text)).toContain("&lt;@\u200beveryone&gt;");

    // Exactly one of each, however many events the issue got.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.mails.filter((entry) => entry.subject.includes("New issue"))).toHaveLength(1);
    expect(hooks("/webhook")).toHaveLength(1);
    expect(hooks("/slack")).toHaveLength(1);
    const entries = await log();
    expect(
      entries
        .filter((entry) => entry.status === "sent")
        .map((entry) => entry.channel)
        .sort(),
    ).toEqual(["email", "slack", "webhook"]);
  }, 90_000);

  it("resolve + a new occurrence → a regression alert", async () => {
    const issueId = (await issueIdOf("TypeError"))!;
    const resolved = await owner.session.mutation("issue.setStatus", { projectId: project.id, issueId, status: "RESOLVED" });
    expect(resolved.error).toBeUndefined();
    await runSentryNode(project.dsn, 1, "plain", { environment: "production" });
    await until(() => hooks("/webhook").some((hook) => hook.json.type === "regression"), 20_000, "regression webhook");
    await smtp.waitFor(owner.email, (entry) => entry.subject.includes("Regression"), 20_000);
    expect(hooks("/webhook").filter((hook) => hook.json.type === "regression")).toHaveLength(1);
  }, 60_000);

  it("SSRF: loopback ports outside OUTBOUND_ALLOW, [::1], 2130706433, localhost, a redirect to a forbidden port, file: and gopher: are refused before any byte, and logged without the address", async () => {
    receiver.redirectTo = `http://127.0.0.1:${tripwire.port}/stolen`;
    const targets = [
      `http://127.0.0.1:${tripwire.port}/hook`,
      `http://[::1]:${tripwire.port}/hook`,
      `http://2130706433:${tripwire.port}/hook`,
      `http://127.0.0.1:${receiver.port}/redirect`,
      `http://localhost:${tripwire.port}/hook`,
    ];
    const created = await owner.session.request(rest("/alert-rules"), {
      method: "POST",
      body: { name: "Forbidden targets", trigger: { type: "new_issue" }, actions: targets.map((url) => ({ type: "webhook", url })) },
    });
    expect(created.status, created.text).toBe(201);
    for (const url of ["file:///etc/passwd", "gopher://127.0.0.1:70/_x"]) {
      const refused = await owner.session.request(rest("/alert-rules"), {
        method: "POST",
        body: { name: "x", trigger: { type: "new_issue" }, actions: [{ type: "webhook", url }] },
      });
      expect(refused.status, url).toBe(400);
      expect(refused.body.error.message).toContain("http:// or https://");
    }
    const test = await owner.session.request(rest(`/alert-rules/${created.body.id}/test`), { method: "POST", body: {} });
    expect(test.status, test.text).toBe(200);
    const outcomes = test.body.notifications as { status: string; error: string }[];
    // The tenant learns that the target is not allowed, never what a name resolved to.
    expect(outcomes.map((entry) => entry.status)).toEqual(["failed", "failed", "failed", "failed", "failed"]);
    expect(outcomes.map((entry) => entry.error)).toEqual(targets.map(() => TARGET_NOT_ALLOWED));
    expect(tripwire.connections()).toBe(0);
    const logged = (await log()).filter((entry) => entry.ruleName === "Forbidden targets");
    expect(logged).toHaveLength(5);
    expect(logged.every((entry) => entry.status === "failed" && entry.error === TARGET_NOT_ALLOWED)).toBe(true);
    expect(JSON.stringify([test.body, logged])).not.toMatch(/\b127\.0\.0\.1\b|::1\b|loopback|resolves/);
    await owner.session.request(rest(`/alert-rules/${created.body.id}`), { method: "DELETE", body: {} });
  }, 60_000);

  it("Send test goes through every action and is logged", async () => {
    const before = hooks("/webhook").length;
    const test = await owner.session.request(rest(`/alert-rules/${hookRuleId}/test`), { method: "POST", body: {} });
    expect(test.status, test.text).toBe(200);
    expect(test.body.notifications.map((entry: { status: string }) => entry.status)).toEqual(["sent", "sent"]);
    const hook = hooks("/webhook")[before];
    expect(hook.json).toMatchObject({ test: true, type: "test", issue: null });
    expect(verifySignature(webhookSecret, hook.raw, String(hook.headers["faultline-signature"]))).toBe(true);
  });

  it("a failing receiver is retried with backoff, then marked failed with the error", async () => {
    receiver.statusFor.set("/flaky", 503);
    const rule = await owner.session.request(rest("/alert-rules"), {
      method: "POST",
      body: { name: "Flaky", trigger: { type: "new_issue" }, actions: [{ type: "webhook", url: `http://127.0.0.1:${receiver.port}/flaky` }] },
    });
    // A retried delivery's backoff starts at 2 s; shorten the wait by moving due times (the clock of the queue).
    await executeRows(
      server.database.db,
      sql`insert into alert_notifications (organization_id, project_id, rule_id, rule_name, action_id, channel, kind, reason, status)
          values (${orgId}, ${project.id}::uuid, ${rule.body.id}::uuid, 'Flaky', ${rule.body.actions[0].id}::uuid, 'webhook', 'alert', 'new_issue', 'pending')`,
    );
    const [row] = await executeRows<{ id: string }>(server.database.db, sql`select id from alert_notifications where rule_name = 'Flaky'`);
    await server.services.jobs!.enqueue("alert.deliver", { notificationId: row.id });
    const final = await until(
      async () => {
        await executeRows(server.database.db, sql`update jobs set run_at = now() where name = 'alert.deliver' and state = 'queued'`);
        const [entry] = await executeRows<{ status: string; attempts: number; error: string }>(
          server.database.db,
          sql`select status, attempts, error from alert_notifications where id = ${row.id}::uuid`,
        );
        return entry.status === "failed" ? entry : null;
      },
      30_000,
      "failed delivery",
    );
    expect(final).toMatchObject({ attempts: 4, error: "The receiver answered HTTP 503" });
    expect(hooks("/flaky")).toHaveLength(4);
  }, 60_000);

  it("5,000 events of one issue in a minute → one spike alert, the repeats within its interval dropped (no digest); an ignored issue → nothing", async () => {
    const spike = await owner.session.request(rest("/alert-rules"), {
      method: "POST",
      body: {
        name: "Spike",
        trigger: { type: "issue_frequency", count: 100, minutes: 1 },
        actions: [{ type: "webhook", url: `http://127.0.0.1:${receiver.port}/spike` }],
        intervalMinutes: 30,
        maxPerHour: 1,
      },
    });
    expect(spike.status, spike.text).toBe(201);
    // An issue that exists and is ignored first: its flood must alert nobody.
    await sendFlood(server, project, "MutedError", 1);
    const mutedId = await until(() => issueIdOf("MutedError"), 10_000, "muted issue");
    await owner.session.mutation("issue.setStatus", { projectId: project.id, issueId: mutedId, status: "IGNORED" });
    await sendFlood(server, project, "MutedError", 400);
    await sendFlood(server, project, "StormError", 5000);
    const stormId = await until(() => issueIdOf("StormError"), 10_000, "storm issue");
    await until(() => hooks("/spike").length >= 1, 20_000, "spike alert");
    // Further checks while the issue stays over the threshold repeat it within the interval: dropped.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await sendFlood(server, project, "StormError", 200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const spikes = hooks("/spike");
    expect(spikes).toHaveLength(1);
    expect(spikes[0].json).toMatchObject({ type: "issue_frequency", issue: { id: stormId } });
    // (Its creation alerted the new-issue rules before it was ignored; the flood afterwards alerts nobody.)
    expect(hooks("/spike").some((request) => JSON.stringify(request.json).includes(mutedId))).toBe(false);
    expect((await log()).some((entry) => entry.ruleName === "Spike" && entry.issueId === mutedId)).toBe(false);
    // Those checks only repeated the issue's own alert within its interval: nothing is held, so no digest follows.
    const spikeRuleId = spike.body.id as string;
    expect(await executeRows(server.database.db, sql`select 1 from alert_notifications where rule_id = ${spikeRuleId}::uuid and held`)).toHaveLength(0);
    expect(await executeRows(server.database.db, sql`select 1 from jobs where name = 'alert.digest' and payload like ${`%${spikeRuleId}%`}`)).toHaveLength(0);
  }, 180_000);

  it("members read rules and the log but cannot edit or test-send; a member who opted out gets no alert email", async () => {
    const memberEmail = `member-${Date.now()}@example.com`;
    const invite = await owner.session.request("/api/auth/organization/invite-member", { body: { email: memberEmail, role: "member" } });
    expect(invite.status, invite.text).toBe(200);
    const invitation = await smtp.waitFor(memberEmail, (entry) => entry.links.some((link) => link.includes("invitationId")), 10_000);
    const member = await signUpThroughSmtp(server, smtp, "Plain Member", memberEmail);
    const invitationId = new URL(invitation.links.find((link) => link.includes("invitationId"))!).searchParams.get("invitationId");
    expect((await member.session.request("/api/auth/organization/accept-invitation", { body: { invitationId } })).status).toBe(200);
    expect((await member.session.request("/api/auth/organization/set-active", { body: { organizationId: orgId } })).status).toBe(200);

    expect((await member.session.request(rest("/alert-rules"))).status).toBe(200);
    expect((await member.session.request(rest("/notifications"))).status).toBe(200);
    const body = { name: "mine", trigger: { type: "new_issue" }, actions: [{ type: "email", to: "members" }] };
    expect((await member.session.request(rest("/alert-rules"), { method: "POST", body })).status).toBe(403);
    expect((await member.session.request(rest(`/alert-rules/${hookRuleId}`), { method: "PUT", body })).status).toBe(403);
    expect((await member.session.request(rest(`/alert-rules/${hookRuleId}`), { method: "DELETE", body: {} })).status).toBe(403);
    expect((await member.session.request(rest(`/alert-rules/${hookRuleId}/test`), { method: "POST", body: {} })).status).toBe(403);
    expect((await member.session.mutation("alert.create", { projectId: project.id, ...body })).error?.code).toBe("FORBIDDEN");
    expect((await owner.session.request(rest(`/alert-rules/${hookRuleId}`))).body.name).toBe("Hooks");

    // Personal opt-out: the member stops getting this project's alert emails; the owner still does.
    const optOut = await member.session.mutation("alert.setEmailOptOut", { projectId: project.id, optedOut: true });
    expect(optOut.data).toEqual({ projectId: project.id, optedOut: true });
    await runSentryNode(project.dsn, 1, "plain", { environment: "production", handler: "search" });
    await smtp.waitFor(owner.email, (entry) => entry.subject.includes("New issue") && entry.text.includes("searchHandler"), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.mails.filter((entry) => entry.to.includes(memberEmail.toLowerCase()) && entry.subject.includes("[Faultline]"))).toHaveLength(0);
  }, 60_000);
});

async function sendFlood(server: TestServer, project: { number: number; apiKey: string }, type: string, count: number) {
  const url = `${server.url}/api/${project.number}/envelope/?sentry_key=${project.apiKey}`;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const eventId = crypto.randomUUID().replaceAll("-", "");
      const event = {
        event_id: eventId,
        level: "error",
        platform: "node",
        environment: "production",
        exception: {
          values: [{ type, value: "flood", stacktrace: { frames: [{ function: "floodHandler", filename: "/app/flood.js", lineno: 7, in_app: true }] } }],
        },
      };
      const response = await fetch(url, { method: "POST", body: `${JSON.stringify({ event_id: eventId })}\n{"type":"event"}\n${JSON.stringify(event)}\n` });
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}
