import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/test-server";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");
const PASSWORD = "correct horse battery";

/**
 * Issue 2's browser journey in real Chromium against the built client (`npm test` builds it):
 * sign up → verification link from the outbox → organization → invite a second user who
 * accepts → project → its DSN; and the dark theme surviving a reload.
 */
describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("foundation in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function outboxLink(page: Page, to: string, kind: string) {
    await page.goto(`${server.url}/dev/outbox`);
    const link = page.locator(`li[data-kind="${kind}"][data-to="${to}"] a`).first();
    await link.waitFor();
    return link;
  }

  async function signUp(page: Page, name: string, email: string) {
    await page.goto(`${server.url}/auth/signup`);
    await page.getByTestId("signup-name").fill(name);
    await page.getByTestId("signup-email").fill(email);
    await page.getByTestId("signup-password").fill(PASSWORD);
    await page.getByTestId("signup-accept-policy").click();
    await page.getByTestId("signup-submit").click();
    await page.waitForURL("**/auth/signup/verify-email**");
    // The user clicks the link in the local outbox, like a person without SMTP configured.
    await (await outboxLink(page, email, "verification")).click();
    await page.waitForURL("**/auth/signup/success**");
  }

  it("signs up, verifies, creates an organization, invites a teammate who accepts, and shows a project's DSN", async () => {
    const stamp = Date.now();
    const alice = `alice-${stamp}@example.com`;
    const bob = `bob-${stamp}@example.com`;
    const owner = await newPage(browser);
    const page = owner.page;

    await signUp(page, "Alice Owner", alice);
    await page.getByTestId("signup-continue").click();
    await page.waitForURL("**/onboarding");
    await page.getByTestId("onboarding-org-name").fill("Acme Corp");
    await page.getByTestId("onboarding-org-submit").click();
    await page.getByTestId("project-name").fill("checkout-api");
    await page.selectOption('[data-testid="project-platform"]', "NODE_JS");
    await page.getByTestId("project-submit").click();
    await page.waitForURL("**/dashboard/projects/*/settings");
    const dsn = await page.getByTestId("project-dsn").innerText();
    expect(dsn).toMatch(new RegExp(`^http://[0-9a-f]{32}@localhost:${new URL(server.url).port}/\\d+$`));

    await page.goto(`${server.url}/settings/organization`);
    await page.getByTestId("invite-email").fill(bob);
    await page.selectOption('[data-testid="invite-role"]', "admin");
    await page.getByTestId("invite-submit").click();
    await page.getByTestId("pending-invitation-row").waitFor();

    const invitee = await newPage(browser);
    await signUp(invitee.page, "Bob Admin", bob);
    const inviteLink = await outboxLink(invitee.page, bob, "invitation");
    await inviteLink.click();
    await invitee.page.getByTestId("invite-accept").click();
    await invitee.page.waitForURL("**/dashboard");
    await invitee.page.goto(`${server.url}/dashboard/projects`);
    await expect.poll(() => invitee.page.getByText("checkout-api").count()).toBeGreaterThan(0);
    expect(await invitee.page.getByTestId("org-switcher").innerText()).toContain("Acme Corp");

    await page.goto(`${server.url}/settings/organization`);
    await expect.poll(() => page.getByTestId("member-row").count()).toBe(2);
    expect(owner.problems).toEqual([]);
    expect(invitee.problems).toEqual([]);
  }, 90_000);

  it("keeps the dark theme across a reload", async () => {
    const { page, problems } = await newPage(browser);
    await page.goto(`${server.url}/auth/login`);
    await page.getByTestId("login-submit").waitFor();
    await page.evaluate(() => localStorage.clear());
    await signUp(page, "Dana Dark", `dana-${Date.now()}@example.com`);
    await page.goto(`${server.url}/dashboard/profile`);
    await page.getByTestId("theme-toggle").first().click();
    await page.getByTestId("theme-dark").click();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await page.reload();
    await page.waitForLoadState("domcontentloaded");
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("faultline-theme"))).toBe("dark");
    expect(problems).toEqual([]);
  }, 60_000);

  it("links the sign-up's Privacy Policy to the built-in page, or to PRIVACY_POLICY_URL when set (issue 37 item 12)", async () => {
    const { page, problems } = await newPage(browser);
    await page.goto(`${server.url}/auth/signup`);
    const link = page.getByTestId("privacy-policy-link");
    expect(await link.innerText()).toBe("Privacy Policy");
    expect(new URL((await link.getAttribute("href"))!, server.url).pathname).toBe("/privacy");
    await page.goto(`${server.url}/privacy`);
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Privacy Policy");
    expect(await page.getByTestId("privacy-policy").innerText()).toContain("What is stored.");

    const policy = "https://policies.example.test/privacy";
    const configured = await startTestServer({ serveClient: true, env: { PRIVACY_POLICY_URL: policy } });
    try {
      await page.goto(`${configured.url}/auth/signup`);
      await expect.poll(() => page.getByTestId("privacy-policy-link").getAttribute("href")).toBe(policy);
      expect(await page.getByTestId("privacy-policy-link").getAttribute("rel")).toBe("noopener noreferrer");
    } finally {
      await configured.close();
    }
    expect(problems).toEqual([]);
  }, 90_000);
});
