import { existsSync } from "node:fs";
import { HOSTED_ENV_WITHOUT_STRIPE } from "../helpers/billing-server";
import path from "node:path";
import type { MockLanguageModelV3 } from "ai/test";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { scriptedModel, text, toolCalls } from "../helpers/scripted-model";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { issueByType, sendEvent, triageTenant } from "../helpers/triage-seed";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("the AI agent chat in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let model: MockLanguageModelV3;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true, outside: { modelProvider: { modelId: "scripted", languageModel: () => model } } });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("starts a chat, streams an answer with a tool card and a chart, applies an approved status change, and keeps, renames and deletes the conversation", async () => {
    const tenant = await triageTenant(server, "Chat E2E");
    await sendEvent(server, tenant.project, { type: "CheckoutError", value: "card declined", fn: "pay" });
    const issue = await issueByType(tenant.session, tenant.project.id, "CheckoutError");
    model = scriptedModel(
      [
        () => toolCalls({ name: "dailyStats", input: {} }, { name: "searchIssues", input: { text: "Checkout" } }),
        () => toolCalls({ name: "setIssueStatus", input: { issueId: issue.id, status: "RESOLVED" } }),
        () => text(`Resolved [the checkout error](/dashboard/issues/${issue.id}?projectId=${tenant.project.id}).`),
      ],
      "Checkout trouble",
    );
    const { page, problems } = await newPage(browser);
    await signInPage(page, tenant.session, server.url);
    await page.goto(`${server.url}/dashboard/chat`);
    await page.getByLabel("Question").fill("What broke since yesterday? Resolve it.");
    await page.getByRole("button", { name: "Start chat" }).click();
    await page.waitForURL(/\/dashboard\/chat\/[0-9a-f-]{36}/, { waitUntil: "commit" });

    const chart = page.locator('[data-testid="tool-card"][data-tool="dailyStats"] svg');
    await chart.first().waitFor();
    await page.locator('[data-testid="tool-card"][data-tool="searchIssues"]').getByText("CheckoutError: card declined").waitFor();
    // Issue 37 item 6: the approval names the issue by its title (linked) and shows current → new, no raw id.
    const approval = page.locator('[data-testid="tool-card"][data-tool="setIssueStatus"]');
    await approval.getByTestId("proposed-change-issue").filter({ hasText: "CheckoutError: card declined" }).waitFor();
    expect(await approval.getByTestId("proposed-change-issue").getAttribute("href")).toContain(`/dashboard/issues/${issue.id}`);
    expect(await approval.getByTestId("proposed-change-values").innerText()).toBe("Open → Resolved");
    expect(await approval.innerText()).not.toContain(issue.id);
    await page.getByRole("button", { name: "Approve" }).click();
    await expect.poll(async () => (await tenant.session.query("issue.get", { projectId: tenant.project.id, issueId: issue.id })).data.status).toBe("RESOLVED");
    await page.getByRole("link", { name: "the checkout error" }).waitFor();
    expect(await page.getByTestId("token-usage").last().innerText()).toMatch(/input/);

    // The activity says the agent made the change, on this person's approval.
    await page.getByRole("link", { name: "CheckoutError: card declined" }).click();
    const entry = page.locator('[data-testid="issue-activity-entry"][data-kind="status"]');
    await entry.waitFor();
    expect(await entry.locator("span").first().innerText()).toBe("The AI agent changed the status from Open to Resolved, on Chat E2E User’s approval");
    await page.goBack();

    await page.goto(`${server.url}/settings/organization`);
    await page.getByTestId("ai-usage-card").locator("tbody tr").first().waitFor();
    await page.goBack();
    const chatUrl = page.url();
    await page.reload();
    await page.getByRole("link", { name: "the checkout error" }).waitFor();
    expect(page.url()).toBe(chatUrl);

    await page.goto(`${server.url}/dashboard/chat`);
    const row = page.getByTestId("conversation-row");
    await row.getByText("Checkout trouble").waitFor();
    await row.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("Conversation title").fill("Friday checkout outage");
    await page.getByRole("button", { name: "Save" }).click();
    await row.getByText("Friday checkout outage").waitFor();
    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByTestId("confirm-submit").click();
    await page.getByText("No conversations yet").waitFor();
    expect((await tenant.session.query("conversation.list")).data).toEqual([]);
    expect(problems).toEqual([]);
  }, 120_000);

  it("says 'Conversation not found' for an unknown chat id, not 'Project not found' (issue 37 item 12)", async () => {
    const tenant = await triageTenant(server, "Chat Missing");
    const { page, problems } = await newPage(browser);
    await signInPage(page, tenant.session, server.url);
    await page.goto(`${server.url}/dashboard/chat/${crypto.randomUUID()}`);
    const view = page.getByTestId("not-found-conversation");
    await view.waitFor();
    expect(await view.getByRole("heading").innerText()).toBe("Conversation not found");
    expect(await page.getByText("Project not found").count()).toBe(0);
    expect(problems).toEqual([]);
  }, 60_000);

  describe("on FAULTLINE_CLOUD without a plus subscription", () => {
    let cloud: TestServer;
    beforeAll(async () => {
      cloud = await startTestServer({
        serveClient: true,
        env: HOSTED_ENV_WITHOUT_STRIPE,
        outside: { modelProvider: { modelId: "m", languageModel: () => model } },
      });
    });
    afterAll(() => cloud?.close());

    it("sends /dashboard/chat to /plus", async () => {
      const tenant = await triageTenant(cloud, "Chat Cloud");
      const { page } = await newPage(browser);
      await signInPage(page, tenant.session, cloud.url);
      await page.goto(`${cloud.url}/dashboard/chat`);
      await page.waitForURL((url) => url.pathname.replace(/\/$/, "") === "/plus", { waitUntil: "commit" });
    });
  });
});
