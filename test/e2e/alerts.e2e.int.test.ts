import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifySignature } from "../../src/server/alerts/channels/webhook";
import { startWebhookReceiver, until, type WebhookReceiver } from "../alerts/alert-kit";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { runSentryNode } from "../helpers/run-sentry-node";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("alerts in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let session: HttpSession;
  let email: string;
  let project: { id: string; dsn: string };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    server = await startTestServer({ serveClient: true, env: { OUTBOUND_ALLOW: `127.0.0.1:${receiver.port}`, ALERT_JOB_POLL_MS: "100" } });
    browser = await launchBrowser();
    ({ session, email } = await signUpVerified(server, { name: "Alma Alert" }));
    await createOrganization(session, "Alert Org");
    project = (await session.mutation("project.create", { name: "checkout", platform: "NODE_JS" })).data;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  it("creates a rule with a webhook action, sends a test, shows it in the log, and an alert email's link opens the issue", async () => {
    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(`${server.url}/dashboard/projects/${project.id}/settings`);
    // Every new project starts with the default rule.
    await expect.poll(() => page.getByTestId("alert-rule").count()).toBe(1);

    await page.getByTestId("new-alert-rule").click();
    await page.locator("#rule-name").fill("Browser hook");
    await page.locator("#rule-action").selectOption("webhook");
    await page.locator("#rule-url").fill(`http://127.0.0.1:${receiver.port}/browser`);
    await page.getByTestId("create-alert-rule").click();
    const secret = (await page.getByTestId("webhook-secret").innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Done" }).click();
    await expect.poll(() => page.getByTestId("alert-rule").count()).toBe(2);

    await page.getByTestId("alert-rule").filter({ hasText: "Browser hook" }).getByTestId("send-test").click();
    const delivered = await until(() => receiver.requests.find((request) => request.path === "/browser"), 15_000, "test delivery");
    expect(delivered.json).toMatchObject({ test: true, rule: { name: "Browser hook" } });
    expect(verifySignature(secret, delivered.raw, String(delivered.headers["faultline-signature"]))).toBe(true);
    const row = page.getByTestId("alert-log-row").filter({ hasText: "Browser hook" });
    await row.first().waitFor();
    expect(await row.first().innerText()).toContain("sent");

    // A real alert: the default rule emails the member; its link opens the issue.
    await runSentryNode(project.dsn, 1, "plain", { environment: "production" });
    const mail = await until(() => server.mailer.outbox().find((entry) => entry.kind === "alert" && entry.to === email.toLowerCase()), 20_000, "alert email");
    expect(mail.subject).toContain("New issue");
    await page.goto(mail.actionUrl);
    await page.getByText("Cannot find order", { exact: false }).first().waitFor();
    expect(page.url()).toContain("/dashboard/issues/");

    // Personal settings: opting out of the project's alert emails.
    await page.goto(`${server.url}/settings/profile`);
    await page.locator(`#alert-emails-${project.id}`).click();
    await expect.poll(async () => (await session.query("alert.emailOptOut", { projectId: project.id })).data?.optedOut).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);
});
