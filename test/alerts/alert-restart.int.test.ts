import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { executeRows } from "../../src/server/db/execute";
import { startSmtpCatcher, type SmtpCatcher } from "../auth/smtp-catcher";
import { runSentryNode } from "../helpers/run-sentry-node";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization } from "../helpers/test-users";
import { signUpThroughSmtp, startWebhookReceiver, until, type WebhookReceiver } from "./alert-kit";

/**
 * "Restart the server between commit and delivery → delivered exactly once": the receiver is down
 * (503) while the first server runs, so the notification is committed and its delivery pending
 * when the server stops; a new server on the same database delivers it once the receiver is back.
 */
describe("alert delivery survives a restart", () => {
  let database: TestDatabase;
  let smtp: SmtpCatcher;
  let receiver: WebhookReceiver;
  let server: TestServer | null = null;

  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await smtp?.close();
    await database?.destroy();
  });

  it("a pending notification is delivered exactly once by the next server", async () => {
    database = await createTestDatabase();
    smtp = await startSmtpCatcher();
    receiver = await startWebhookReceiver();
    receiver.statusFor.set("/hook", 503);
    const options = {
      database,
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, OUTBOUND_ALLOW: `127.0.0.1:${receiver.port}`, ALERT_JOB_POLL_MS: "100" },
    };
    server = await startTestServer(options);
    const owner = await signUpThroughSmtp(server, smtp, "Restart Owner");
    const orgId = (await createOrganization(owner.session, "Restart Org")).id;
    const project = (await owner.session.mutation("project.create", { name: "Restart", platform: "NODE_JS" })).data as { id: string; dsn: string };
    const created = await owner.session.request(`/api/v1/organizations/${orgId}/projects/${project.id}/alert-rules`, {
      method: "POST",
      body: { name: "Restart hook", trigger: { type: "new_issue" }, actions: [{ type: "webhook", url: `http://127.0.0.1:${receiver.port}/hook` }] },
    });
    expect(created.status, created.text).toBe(201);

    await runSentryNode(project.dsn, 1, "plain", { environment: "production" });
    // The first attempt failed (503): the notification is committed, pending, and due again later.
    await until(() => receiver.requests.some((request) => request.path === "/hook"), 20_000, "first attempt");
    await until(
      async () => {
        const rows = await executeRows<{ status: string; attempts: number }>(
          database.db,
          sql`select status, attempts from alert_notifications where rule_name = 'Restart hook'`,
        );
        return rows.length === 1 && rows[0].status === "pending" && rows[0].attempts >= 1;
      },
      10_000,
      "pending notification",
    );
    await server.close();
    server = null;
    const attemptsBefore = receiver.requests.filter((request) => request.path === "/hook").length;

    // Back up: the receiver accepts, and a new server on the same database takes the job over.
    receiver.statusFor.set("/hook", 200);
    await executeRows(database.db, sql`update jobs set run_at = now() where name = 'alert.deliver'`);
    server = await startTestServer(options);
    const [sent] = await until(
      async () => {
        const rows = await executeRows<{ status: string }>(database.db, sql`select status from alert_notifications where rule_name = 'Restart hook'`);
        return rows[0]?.status === "sent" ? rows : null;
      },
      20_000,
      "delivery after restart",
    );
    expect(sent.status).toBe("sent");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const deliveries = receiver.requests.filter((request) => request.path === "/hook").slice(attemptsBefore);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].json).toMatchObject({ type: "new_issue", rule: { name: "Restart hook" } });
    expect(await executeRows(database.db, sql`select 1 from jobs where name = 'alert.deliver'`)).toHaveLength(0);
  }, 120_000);
});
