import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BURST_INDIVIDUAL_ALERTS, BURST_QUIET_MINUTES, DEFAULT_MAX_PER_HOUR } from "../../src/shared/alert.inputs";
import { executeRows } from "../../src/server/db/execute";
import { startSmtpCatcher, type SmtpCatcher } from "../auth/smtp-catcher";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization } from "../helpers/test-users";
import { signUpThroughSmtp, until } from "./alert-kit";

/**
 * Issue 37: the default rule ("New issue or regression", email to every member) after a burst of
 * new issues. Events go through real ingest, the job queue and SMTP (the catcher); time is moved
 * the way the code reads it — the database's clock, through the due times of jobs and the burst
 * row — never waited for.
 */
describe("alerts after a burst of new issues", () => {
  let server: TestServer;
  let smtp: SmtpCatcher;
  let owner: { session: HttpSession; email: string; userId: string };
  let project: { id: string; number: number; apiKey: string };

  const mailsTo = (predicate: (subject: string) => boolean) =>
    smtp.mails.filter((mail) => mail.to.includes(owner.email.toLowerCase()) && predicate(mail.subject));
  const newIssueMails = () => mailsTo((subject) => subject.startsWith("[Faultline] New issue"));
  const digestMails = () => mailsTo((subject) => subject.includes("more alerts in"));
  const rows = <T>(query: ReturnType<typeof sql>) => executeRows<T>(server.database.db, query);
  const issueIdOf = async (type: string) => {
    const { data } = await owner.session.query("issue.list", { projectId: project.id, size: 100 });
    return (data.items as { id: string; title: string }[]).find((issue) => issue.title.startsWith(`${type}:`))?.id;
  };
  /** The burst's quiet period passes: its last alert moves back by BURST_QUIET_MINUTES. */
  const quietPeriodPasses = () => rows(sql`update alert_rule_bursts set last_at = last_at - ${`${BURST_QUIET_MINUTES} minutes`}::interval`);
  const settled = async () => {
    await until(
      async () =>
        (await rows<{ n: number }>(sql`select count(*)::int as n from jobs where name in ('alert.evaluate', 'alert.deliver') and state <> 'completed'`))[0]
          .n === 0,
      20_000,
      "alert jobs done",
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
  };

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ALERT_JOB_POLL_MS: "100" } });
    owner = await signUpThroughSmtp(server, smtp, "Burst Owner");
    await createOrganization(owner.session, "Burst Org");
    // A new project starts with the default rule: a new issue or a regression emails every member.
    project = (await owner.session.mutation("project.create", { name: "Burst shop", platform: "NODE_JS" })).data;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it("20 new issues → the first few mailed one by one, the rest in ONE digest due within a minute; a regression in the burst is mailed on its own", async () => {
    // An issue from before, resolved: it will regress in the middle of the burst.
    await sendErrors(server, project, ["OldError"]);
    await until(() => newIssueMails().length === 1, 20_000, "the old issue's mail");
    const oldId = (await issueIdOf("OldError"))!;
    expect((await owner.session.mutation("issue.setStatus", { projectId: project.id, issueId: oldId, status: "RESOLVED" })).error).toBeUndefined();
    await settled();
    await quietPeriodPasses();

    const burst = Array.from({ length: 20 }, (_, n) => `BurstError${n}`);
    const startedAt = Date.now();
    await sendErrors(server, project, burst);
    // Every issue of the burst evaluated (its alert mark cleared), every delivery done.
    await until(
      async () =>
        (await rows<{ n: number }>(sql`select count(*)::int as n from issues where title like 'BurstError%' and alert_pending_since is null`))[0].n ===
        burst.length,
      20_000,
      "the burst evaluated",
    );
    await settled();
    expect(newIssueMails()).toHaveLength(1 + BURST_INDIVIDUAL_ALERTS);
    const [{ held }] = await rows<{ held: number }>(sql`select count(*)::int as held from alert_notifications where held and issue_title like 'BurstError%'`);
    expect(held).toBe(burst.length - BURST_INDIVIDUAL_ALERTS);

    // The regression, while the burst's alerts are held: mailed at once, on its own.
    await sendErrors(server, project, ["OldError"]);
    const regression = await smtp.waitFor(owner.email, (mail) => mail.subject.startsWith("[Faultline] Regression"), 20_000);
    expect(regression.subject).toContain("OldError");
    await settled();
    expect(newIssueMails()).toHaveLength(1 + BURST_INDIVIDUAL_ALERTS);
    expect(digestMails()).toHaveLength(0);

    // ONE digest job, due within a minute of the first held alert (the database's clock).
    const jobs = await rows<{ due_after_first_held_s: number }>(
      sql`select extract(epoch from j.run_at - (select min(created_at) from alert_notifications where held))::float8 as due_after_first_held_s
          from jobs j where j.name = 'alert.digest' and j.state = 'queued'`,
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0].due_after_first_held_s).toBeGreaterThan(0);
    expect(jobs[0].due_after_first_held_s).toBeLessThanOrEqual(60);
    // Its time comes (as the clock would bring it).
    await rows(sql`update jobs set run_at = now() where name = 'alert.digest' and state = 'queued'`);
    const digest = await smtp.waitFor(owner.email, (mail) => mail.subject.includes("more alerts in"), 20_000);
    expect(digest.subject).toContain(`New issue or regression: ${burst.length - BURST_INDIVIDUAL_ALERTS} more alerts in Burst shop`);
    const individually = newIssueMails().map((mail) => burst.find((type) => mail.subject.includes(`${type}:`)));
    const rest = burst.filter((type) => !individually.includes(type));
    expect(rest).toHaveLength(burst.length - BURST_INDIVIDUAL_ALERTS);
    // It names each held issue once, with its link and count; never the ones already mailed, nor the regression.
    for (const type of rest) {
      expect(digest.text.split(`${type}: flood`).length - 1, type).toBe(1);
      const issueId = (await issueIdOf(type))!;
      expect(
        digest.links.some((link) => link.endsWith(`/dashboard/issues/${issueId}?projectId=${project.id}`)),
        type,
      ).toBe(true);
    }
    for (const type of individually) expect(digest.text).not.toContain(`${type}: flood`);
    expect(digest.text).not.toContain("OldError");
    expect(digest.text).toContain("(1 event)");

    // Exactly one digest: nothing is left held, and no other digest waits or goes out.
    await settled();
    expect(digestMails()).toHaveLength(1);
    expect((await rows(sql`select 1 from alert_notifications where held`)).length).toBe(0);
    expect((await rows(sql`select 1 from jobs where name = 'alert.digest' and state = 'queued'`)).length).toBe(0);
    // Well within the hourly cap: the burst, not the hour, held the rest back.
    expect(1 + BURST_INDIVIDUAL_ALERTS).toBeLessThan(DEFAULT_MAX_PER_HOUR);
    expect(Date.now() - startedAt).toBeLessThan(60_000);
  }, 120_000);

  it("a new issue after the burst's quiet period is mailed on its own at once", async () => {
    const before = newIssueMails().length;
    // Inside the burst, a new issue would wait for a digest.
    await sendErrors(server, project, ["StillBurstingError"]);
    await until(
      async () => (await rows(sql`select 1 from alert_notifications where held and issue_title like 'StillBurstingError%'`)).length === 1,
      20_000,
      "the held alert",
    );
    await settled();
    expect(newIssueMails()).toHaveLength(before);

    await quietPeriodPasses();
    await sendErrors(server, project, ["LaterError"]);
    const mail = await smtp.waitFor(owner.email, (entry) => entry.subject.startsWith("[Faultline] New issue") && entry.subject.includes("LaterError"), 20_000);
    expect(mail.text).toContain("LaterError");
    await settled();
    expect(newIssueMails()).toHaveLength(before + 1);
  }, 60_000);
});

/** One SDK event per exception type (each type is a new issue), over the Sentry envelope endpoint. */
async function sendErrors(server: TestServer, project: { number: number; apiKey: string }, types: string[]) {
  const url = `${server.url}/api/${project.number}/envelope/?sentry_key=${project.apiKey}`;
  await Promise.all(
    types.map(async (type) => {
      const eventId = crypto.randomUUID().replaceAll("-", "");
      const event = {
        event_id: eventId,
        level: "error",
        platform: "node",
        environment: "production",
        exception: {
          values: [{ type, value: "flood", stacktrace: { frames: [{ function: `handle${type}`, filename: "/app/burst.js", lineno: 7, in_app: true }] } }],
        },
      };
      const response = await fetch(url, { method: "POST", body: `${JSON.stringify({ event_id: eventId })}\n{"type":"event"}\n${JSON.stringify(event)}\n` });
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    }),
  );
}
