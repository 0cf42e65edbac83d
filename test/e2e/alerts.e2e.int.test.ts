import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifySignature } from "../../src/server/alerts/channels/webhook";
import { BURST_INDIVIDUAL_ALERTS } from "../../src/shared/alert.inputs";
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
    await page.locator("#rule-action-0").selectOption("webhook");
    await page.locator("#rule-url-0").fill(`http://127.0.0.1:${receiver.port}/browser`);
    await page.getByTestId("save-alert-rule").click();
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

  it("edits a rule: filters, a second action, the webhook keeps its signing secret; bad input is answered in the form", async () => {
    const created = await session.mutation("alert.create", {
      projectId: project.id,
      name: "Edit me",
      trigger: { type: "new_issue" },
      actions: [{ type: "webhook", url: `http://127.0.0.1:${receiver.port}/edited` }],
    });
    const secret = created.data.actions[0].secret as string;
    const webhookId = created.data.actions[0].id;
    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(`${server.url}/dashboard/projects/${project.id}/settings`);

    const row = page.getByTestId("alert-rule").filter({ hasText: "Edit me" });
    await row.getByTestId("edit-alert-rule").click();
    // The saved values fill the form; the URL stays sealed (only its host is shown).
    expect(await page.locator("#rule-name").inputValue()).toBe("Edit me");
    expect(await page.locator("#rule-url-0").getAttribute("placeholder")).toContain("http://127.0.0.1");
    await page.locator("#rule-name").fill("");
    await page.getByTestId("save-alert-rule").click();
    expect(await page.getByTestId("form-error").innerText()).toContain("Please enter a rule name");

    await page.locator("#rule-name").fill("Edited hook");
    await page.locator("#rule-include-regressions").click();
    await page.locator("#rule-environment-PRODUCTION").click();
    await page.locator("#rule-min-level").selectOption("error");
    await page.getByRole("button", { name: "Tag equals…" }).click();
    await page.getByRole("textbox", { name: "Tag", exact: true }).fill("region");
    await page.getByRole("textbox", { name: "Value", exact: true }).fill("eu");
    await page.getByRole("button", { name: "Add action" }).click();
    await page.locator("#rule-email-to-1").selectOption("users");
    await page.getByRole("group", { name: "Members" }).getByText("Alma Alert").click();
    await page.locator("#rule-interval").fill("10");
    // The limits in words, with the rule's numbers as typed (issue 37).
    expect(await page.getByTestId("rule-pace").innerText()).toBe(
      `At most ${BURST_INDIVIDUAL_ALERTS} mails per burst of issues and at most 20 mails per hour; then a digest within a minute. A regression is always sent on its own (at most 20 per hour).`,
    );
    await page.locator("#rule-max-per-hour").fill("12");
    expect(await page.getByTestId("rule-pace").innerText()).toContain("at most 12 mails per hour; then a digest");
    await page.getByTestId("save-alert-rule").click();
    await row.first().waitFor({ state: "detached" });
    const edited = page.getByTestId("alert-rule").filter({ hasText: "Edited hook" });
    expect(await edited.innerText()).toContain("only Production, error+, region=eu");

    const rules = (await session.query("alert.list", { projectId: project.id })).data as { id: string; [key: string]: unknown }[];
    const saved = rules.find((rule) => rule.id === created.data.id);
    expect(saved).toMatchObject({
      name: "Edited hook",
      trigger: { type: "new_issue", includeRegressions: true },
      filters: { environments: ["PRODUCTION"], minLevel: "error", tags: [{ key: "region", value: "eu" }] },
      actions: [
        { id: webhookId, type: "webhook" },
        { type: "email", to: "users", userIds: [expect.any(String)] },
      ],
      intervalMinutes: 10,
      maxPerHour: 12,
    });

    // The webhook kept its URL and signing secret through the edit.
    await edited.getByTestId("send-test").click();
    const delivered = await until(() => receiver.requests.find((request) => request.path === "/edited"), 15_000, "test delivery after the edit");
    expect(verifySignature(secret, delivered.raw, String(delivered.headers["faultline-signature"]))).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);
});
