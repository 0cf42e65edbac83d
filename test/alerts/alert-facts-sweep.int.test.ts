import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issues } from "../../src/server/db/schema/index";
import { executeRows } from "../../src/server/db/execute";
import { groupForIngest } from "../../src/server/grouping/ingest-grouping";
import { normalizeSentryEvent } from "../../src/server/ingest/normalize/event.normalizer";
import { commitBatch } from "../../src/server/ingest/store/batch-commit";
import { prepareOccurrence } from "../../src/server/ingest/store/prepared-occurrence";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";
import { startWebhookReceiver, until, type WebhookReceiver } from "./alert-kit";

/**
 * Issue 18, "nothing lost": a process killed after an ingest commit but before it handed the new
 * issue to alerts. The commit is made here with the batch statement alone — what such a process
 * leaves behind — and the running server's sweep must find the issue and alert for it, once.
 */
describe("issues never handed over to alerts", () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let session: HttpSession;
  let organizationId: string;
  let project: { id: string; dsn: string };
  let seq = 0;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    server = await startTestServer({
      env: { OUTBOUND_ALLOW: `127.0.0.1:${receiver.port}`, ALERT_JOB_POLL_MS: "100" },
      outside: { alertOptions: { factsSweep: { everyMs: 200, olderThanMs: 1500 } } },
    });
    ({ session } = await signUpVerified(server, { name: "Sweep Owner" }));
    organizationId = (await createOrganization(session, "Sweep Org")).id;
    project = (await session.mutation("project.create", { name: "sweep", platform: "NODE_JS" })).data;
    const rule = await session.mutation("alert.create", {
      projectId: project.id,
      name: "Sweep hook",
      trigger: { type: "new_issue", includeRegressions: true },
      actions: [{ type: "webhook", url: `http://127.0.0.1:${receiver.port}/sweep` }],
    });
    expect(rule.error).toBeUndefined();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  /** Commits one event of the issue named `title` the way ingest does, but hands nothing to alerts. */
  const commitWithoutHandOff = async (title: string) => {
    seq += 1;
    const occurrence = normalizeSentryEvent({ event_id: seq.toString(16).padStart(32, "0"), message: title, level: "error" });
    const prepared = prepareOccurrence({ organizationId, projectId: project.id, occurrence, grouping: groupForIngest(occurrence), receivedAt: new Date() });
    await commitBatch(server.database, [prepared], []);
    return prepared.issueId;
  };
  const pendingSince = async (issueId: string) =>
    (await server.database.db.select({ since: issues.alertPendingSince }).from(issues).where(eq(issues.id, issueId)))[0]?.since ?? null;
  const deliveriesFor = (title: string) =>
    receiver.requests.filter((request) => request.path === "/sweep" && (request.json as { issue?: { title?: string } }).issue?.title === title);

  it("alerts for a new issue whose commit was never handed over, once, and clears its mark", async () => {
    const issueId = await commitWithoutHandOff("Lost after commit");
    expect(await pendingSince(issueId)).toBeInstanceOf(Date);
    await until(() => deliveriesFor("Lost after commit").length > 0 || null, 20_000, "the swept issue's alert");
    await until(async () => ((await pendingSince(issueId)) === null ? true : null), 10_000, "the mark cleared");
    // Several sweeps later, still one alert.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(deliveriesFor("Lost after commit")).toHaveLength(1);
    expect(deliveriesFor("Lost after commit")[0].json).toMatchObject({ type: "new_issue", issue: { id: issueId } });
  }, 60_000);

  it("recovers a regression the same way", async () => {
    const issueId = await commitWithoutHandOff("Reopened after commit");
    await until(() => deliveriesFor("Reopened after commit").length > 0 || null, 20_000, "the new issue's alert");
    await executeRows(server.database.db, sql`update issues set status = 'RESOLVED', resolved_at = now() where id = ${issueId}`);
    await commitWithoutHandOff("Reopened after commit");
    expect(await pendingSince(issueId)).toBeInstanceOf(Date);
    await until(() => (deliveriesFor("Reopened after commit").length > 1 ? true : null), 20_000, "the regression's alert");
    expect(deliveriesFor("Reopened after commit")[1].json).toMatchObject({ type: "regression", issue: { id: issueId } });
  }, 60_000);

  it("an issue handed over as usual is marked only until it is evaluated, and alerts once", async () => {
    const envelope = (eventId: string) =>
      `{"event_id":"${eventId}"}\n{"type":"event"}\n${JSON.stringify({ event_id: eventId, message: "Handed over as usual", level: "error" })}\n`;
    const key = new URL(project.dsn).username;
    const response = await fetch(`${server.url}/api/${new URL(project.dsn).pathname.slice(1)}/envelope/?sentry_key=${key}`, {
      method: "POST",
      body: envelope("f".repeat(32)),
    });
    expect(response.status).toBe(200);
    await until(() => deliveriesFor("Handed over as usual").length > 0 || null, 20_000, "the usual alert");
    const [row] = await server.database.db
      .select({ id: issues.id, since: issues.alertPendingSince })
      .from(issues)
      .where(eq(issues.title, "Handed over as usual"));
    expect(row.since).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(deliveriesFor("Handed over as usual")).toHaveLength(1);
  }, 60_000);
});
