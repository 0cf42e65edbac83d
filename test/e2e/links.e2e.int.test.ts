import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversations } from "../../src/server/db/schema/index";
import { orgPost } from "../auth/org-kit";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { issueByType, sendEvent, triageTenant } from "../helpers/triage-seed";
import { lastMail } from "../helpers/test-users";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

/**
 * Issue 37, item 1: a link into another of the user's organizations — an alert mail's issue link
 * above all — used to answer "Not Found", as every read is scoped by the active organization. The
 * screen now makes the linked row's organization active and shows it; a non-member still gets
 * the plain not-found, and their active organization is left alone.
 */
describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("links into another organization in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let home: Awaited<ReturnType<typeof triageTenant>>;
  let other: Awaited<ReturnType<typeof triageTenant>>;
  let outsider: Awaited<ReturnType<typeof triageTenant>>;
  let issue: { id: string };
  let exceptionId: string;
  let chatId: string;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    home = await triageTenant(server, "Home Org");
    other = await triageTenant(server, "Other Org");
    outsider = await triageTenant(server, "Outsider Org");
    // Home's user joins Other as a member and keeps Home active.
    await orgPost(other.session, "invite-member", { email: home.email, role: "member", organizationId: other.org.id });
    const invitationId = new URL(lastMail(server, home.email, "invitation").actionUrl).searchParams.get("invitationId");
    expect((await orgPost(home.session, "accept-invitation", { invitationId })).status).toBe(200);
    await sendEvent(server, other.project, { type: "LinkedError", value: "from the alert mail", fn: "linkedHandler" });
    issue = await issueByType(other.session, other.project.id, "LinkedError");
    exceptionId = (await other.session.query("exception.list", { projectId: other.project.id, issueId: issue.id })).data.items[0].id;
    chatId = crypto.randomUUID();
    await server.database.db.insert(conversations).values({
      id: chatId,
      organizationId: other.org.id,
      projectId: other.project.id,
      ownerUserId: home.userId,
      title: "Linked conversation",
      dateFrom: null,
      dateTo: null,
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const activeOrganizationOf = async (session: HttpSession) => (await session.request("/api/auth/get-session")).body.session.activeOrganizationId;
  const makeHomeActive = async () => {
    expect((await orgPost(home.session, "set-active", { organizationId: home.org.id })).status).toBe(200);
  };
  const switcherShows = (page: Page, name: string) => expect.poll(() => page.getByTestId("org-switcher").innerText()).toContain(name);

  it("opens an alert mail's issue link of the other organization: switches to it and shows the issue", async () => {
    await makeHomeActive();
    const { page, problems } = await newPage(browser);
    await signInPage(page, home.session, server.url);
    // The link exactly as alert-delivery.ts writes it into mails.
    await page.goto(`${server.url}/dashboard/issues/${issue.id}?projectId=${other.project.id}`);
    await page.locator(`[data-testid="issue-detail"][data-issue-id="${issue.id}"]`).waitFor();
    expect(await page.getByText("LinkedError").count()).toBeGreaterThan(0);
    await switcherShows(page, "Other Org");
    expect(await activeOrganizationOf(home.session)).toBe(other.org.id);
    expect(await page.getByTestId("not-found").count()).toBe(0);
    expect(problems).toEqual([]);
  }, 60_000);

  it("does the same for exception, project, issue-list and chat links, and for an issue link without its project", async () => {
    const { page, problems } = await newPage(browser);
    await signInPage(page, home.session, server.url);
    const cases: [string, () => Promise<unknown>][] = [
      [`/dashboard/issues/${issue.id}`, () => page.locator(`[data-testid="issue-detail"][data-issue-id="${issue.id}"]`).waitFor()],
      [`/dashboard/issues/${issue.id}/exceptions/${exceptionId}?projectId=${other.project.id}`, () => page.getByTestId("exception-detail").waitFor()],
      [`/dashboard/projects/${other.project.id}/settings`, () => page.getByTestId("project-dsn").waitFor()],
      [`/dashboard/issues?projectId=${other.project.id}`, () => page.locator(`[data-testid="issue-row"][data-issue-id="${issue.id}"]`).waitFor()],
      [`/dashboard/chat/${chatId}`, () => page.getByText("Linked conversation").first().waitFor()],
    ];
    for (const [link, shown] of cases) {
      await makeHomeActive();
      await page.goto(`${server.url}${link}`);
      await shown();
      await switcherShows(page, "Other Org");
      expect(await activeOrganizationOf(home.session), link).toBe(other.org.id);
    }
    expect(problems).toEqual([]);
  }, 90_000);

  it("shows a non-member the plain not-found and leaves their organization active", async () => {
    const { page, problems } = await newPage(browser);
    await signInPage(page, outsider.session, server.url);
    for (const link of [
      `/dashboard/issues/${issue.id}?projectId=${other.project.id}`,
      `/dashboard/issues/${issue.id}`,
      `/dashboard/issues/${issue.id}/exceptions/${exceptionId}?projectId=${other.project.id}`,
    ]) {
      await page.goto(`${server.url}${link}`);
      await page.getByTestId("not-found").waitFor();
      expect(await page.getByRole("heading", { name: "Not Found" }).count(), link).toBe(1);
    }
    await page.goto(`${server.url}/dashboard/projects/${other.project.id}/settings`);
    await page.getByTestId("not-found-project").waitFor();
    expect(await page.getByText("LinkedError").count()).toBe(0);
    await switcherShows(page, "Outsider Org");
    expect(await activeOrganizationOf(outsider.session)).toBe(outsider.org.id);
    expect(problems).toEqual([]);
  }, 60_000);
});
