import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import {
  createTriageProject,
  hoursAgo,
  issueByType,
  sendAnalyticsEvent,
  sendEvent,
  sendEvents,
  triageTenant,
  type TriageProject,
} from "../helpers/triage-seed";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

/**
 * Issue 14's screen items (14–19, 21, 22, 24) in real Chromium against the built client, one
 * server and one browser for the file: paging past the end, the exceptions overview's environment
 * filter, the dashboard's two top-issue orderings, issue links without a project, the regression
 * in the activity, the remembered project, a 390 px phone, the primary client key, the outbox.
 */
describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("screens a newcomer trips over, in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let session: HttpSession;
  let first: TriageProject;
  let second: TriageProject;
  let hotIssueId: string;
  let newestIssueId: string;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    const tenant = await triageTenant(server, "Screens");
    session = tenant.session;
    first = tenant.project;
    second = await createTriageProject(session, "second-api");
    // 12 issues of one exception each (the last 4 in staging), one issue of 3 older exceptions.
    await sendEvents(server, second, [
      ...Array.from({ length: 3 }, () => ({ type: "HotError", value: "busy", fn: "hotHandler", timestamp: hoursAgo(5) })),
      ...Array.from({ length: 12 }, (_, n) => ({
        type: `Type${String.fromCharCode(65 + n)}Error`,
        value: "x",
        fn: `handler${String.fromCharCode(65 + n)}`,
        environment: n >= 8 ? "staging" : "production",
      })),
    ]);
    for (const name of ["signup", "checkout", "refund"]) await sendAnalyticsEvent(server, second, name);
    hotIssueId = (await issueByType(session, second.id, "HotError")).id;
    newestIssueId = (await issueByType(session, second.id, "TypeLError")).id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A signed-in page (the API session's cookies) that also records console errors. */
  async function signedInPage(viewport?: { width: number; height: number }) {
    const opened = viewport ? await pageWithViewport(viewport) : await newPage(browser);
    const { hostname } = new URL(server.url);
    await opened.page
      .context()
      .addCookies([...session.cookies].map(([name, value]) => ({ name, value, domain: hostname, path: "/", httpOnly: true, sameSite: "Lax" as const })));
    opened.page.on("console", (message) => {
      if (message.type() === "error") opened.problems.push(`console: ${message.text()}`);
    });
    return opened;
  }
  async function pageWithViewport(viewport: { width: number; height: number }) {
    const context = await browser.newContext({ viewport, hasTouch: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    return { page, problems };
  }
  const searchOf = (page: Page) => new URL(page.url()).searchParams;

  it("moves a page past the end to the last page on the issue, event and exception lists (item 14)", async () => {
    const { page, problems } = await signedInPage();
    const screens = [
      { path: `/dashboard/issues?projectId=${second.id}&size=10&page=99`, row: "issue-row", rows: 3, summary: "11–13 of 13" },
      { path: `/dashboard/events?projectId=${second.id}&size=2&page=99`, row: "event-row", rows: 1, summary: "3–3 of 3" },
      { path: `/dashboard/exceptions?projectId=${second.id}&size=10&page=99`, row: "exception-row", rows: 5, summary: "11–15 of 15" },
    ];
    for (const screen of screens) {
      await page.goto(`${server.url}${screen.path}`);
      await expect.poll(() => searchOf(page).get("page"), { message: screen.path }).toBe("2");
      await expect.poll(() => page.getByTestId(screen.row).count(), { message: screen.path }).toBe(screen.rows);
      expect(await page.getByTestId("pager-summary").innerText(), screen.path).toBe(screen.summary);
      expect(await page.getByTestId("issues-empty").count(), screen.path).toBe(0);
    }
    expect(problems).toEqual([]);
  }, 90_000);

  it("filters the latest exceptions by the environment filter, like the chart (item 15)", async () => {
    const { page, problems } = await signedInPage();
    await page.goto(`${server.url}/dashboard/exceptions?projectId=${second.id}`);
    await expect.poll(() => page.getByTestId("exception-row").count()).toBe(10);
    await page.getByTestId("filter-env-STAGING").click();
    await expect.poll(() => page.getByTestId("exception-row").count()).toBe(4);
    expect(await page.getByTestId("pager-summary").innerText()).toBe("1–4 of 4");
    expect(await page.getByTestId("latest-exceptions-heading").innerText()).toContain("Staging");
    const staging = (await session.query("exception.list", { projectId: second.id, environments: ["STAGING"] })).data.items.map(
      (item: { id: string }) => item.id,
    );
    const shown = await page.getByTestId("exception-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-exception-id")));
    expect(shown.sort()).toEqual([...staging].sort());
    expect(problems).toEqual([]);
  }, 60_000);

  it("says which ordering the dashboard's top issues use and offers both (item 16)", async () => {
    const { page, problems } = await signedInPage();
    await page.goto(`${server.url}/dashboard`);
    const card = page.locator(`[data-testid="project-card"][data-project-id="${second.id}"]`);
    await card.getByTestId("top-issue").first().waitFor();
    expect(await card.getByTestId("top-issues-heading").innerText()).toMatch(/most frequent, 14 days/i);
    expect(await card.getByTestId("top-issue").first().getAttribute("data-issue-id")).toBe(hotIssueId);
    expect(await card.getByTestId("top-issue-count").first().innerText()).toBe("3");
    await card.getByTestId("top-issues-newest").click();
    await expect.poll(() => searchOf(page).get("top")).toBe("newest");
    await expect.poll(() => card.getByTestId("top-issue").first().getAttribute("data-issue-id")).toBe(newestIssueId);
    expect(await card.getByTestId("top-issues-heading").innerText()).toMatch(/newest/i);
    expect(problems).toEqual([]);
  }, 60_000);

  it("resolves an issue link without ?projectId= to the issue's project, and shows a regression in its activity (items 17, 18)", async () => {
    await sendEvent(server, first, { type: "RegressError", value: "again", fn: "regressHandler" });
    const regress = await issueByType(session, first.id, "RegressError");
    await session.mutation("issue.setStatus", { projectId: first.id, issueId: regress.id, status: "RESOLVED" });
    await sendEvent(server, first, { type: "RegressError", value: "again", fn: "regressHandler" });

    const { page, problems } = await signedInPage();
    await page.goto(`${server.url}/dashboard/issues/${hotIssueId}`);
    await expect.poll(() => searchOf(page).get("projectId")).toBe(second.id);
    await page.getByTestId("issue-detail").waitFor();
    expect(await page.getByTestId("issue-detail").getAttribute("data-issue-id")).toBe(hotIssueId);
    await page.goto(`${server.url}/dashboard/issues/${hotIssueId}/exceptions`);
    await expect.poll(() => searchOf(page).get("projectId")).toBe(second.id);
    await expect.poll(() => page.getByTestId("exception-row").count()).toBe(3);

    await page.goto(`${server.url}/dashboard/issues/${regress.id}`);
    await page.getByTestId("issue-regression").first().waitFor();
    const entry = page.locator('[data-testid="issue-activity-entry"][data-kind="regression"]');
    await entry.waitFor();
    expect(await entry.innerText()).toContain("reopened it as a regression");

    // Another organization's issue is a plain not-found, not a crash.
    const stranger = await triageTenant(server, "Screens Stranger");
    await sendEvent(server, stranger.project, { type: "StrangerError", value: "x", fn: "strangerHandler" });
    const foreign = await issueByType(stranger.session, stranger.project.id, "StrangerError");
    await page.goto(`${server.url}/dashboard/issues/${foreign.id}`);
    await page.getByText("Not Found").first().waitFor();
    expect(await page.locator("body").innerText()).not.toContain("StrangerError");
    expect(problems.filter((problem) => !problem.includes("404"))).toEqual([]);
  }, 90_000);

  it("remembers the chosen project between the issue, event and exception screens (item 19)", async () => {
    const { page, problems } = await signedInPage();
    await page.goto(`${server.url}/dashboard/issues`);
    await expect.poll(() => searchOf(page).get("projectId")).toBe(first.id);
    await page.getByTestId("project-select").selectOption(second.id);
    await expect.poll(() => searchOf(page).get("projectId")).toBe(second.id);
    await page.getByTestId("issue-row").first().waitFor();
    for (const screen of ["Events", "Exceptions", "Issues"]) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: screen }).click();
      await expect.poll(() => searchOf(page).get("projectId"), { message: screen }).toBe(second.id);
    }
    // Choosing the first project again is remembered too, and survives a fresh load.
    await page.getByTestId("project-select").selectOption(first.id);
    await expect.poll(() => searchOf(page).get("projectId")).toBe(first.id);
    await page.goto(`${server.url}/dashboard/events`);
    await expect.poll(() => searchOf(page).get("projectId")).toBe(first.id);
    expect(problems).toEqual([]);
  }, 60_000);

  it("is usable at 390 px: no sideways scrolling, a navigation menu, the account menu inside the screen (item 21)", async () => {
    const width = 390;
    const { page, problems } = await signedInPage({ width, height: 844 });
    const screens = [
      "/dashboard",
      `/dashboard/issues?projectId=${second.id}`,
      `/dashboard/issues/${hotIssueId}?projectId=${second.id}`,
      `/dashboard/exceptions?projectId=${second.id}`,
      `/dashboard/events?projectId=${second.id}`,
      `/dashboard/projects/${second.id}/settings`,
      "/settings/organization",
    ];
    for (const screen of screens) {
      await page.goto(`${server.url}${screen}`);
      await page.getByTestId("user-menu").waitFor();
      await page.waitForLoadState("networkidle");
      const layout = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        headerRight: document.querySelector('[data-testid="app-header"]')!.getBoundingClientRect().right,
        userMenuRight: document.querySelector('[data-testid="user-menu"]')!.getBoundingClientRect().right,
      }));
      expect(layout.scrollWidth, screen).toBeLessThanOrEqual(width);
      expect(layout.headerRight, screen).toBeLessThanOrEqual(width);
      expect(layout.userMenuRight, screen).toBeLessThanOrEqual(width);
    }
    await page.getByTestId("user-menu").click();
    const menu = page.getByRole("menu");
    await page.getByTestId("sign-out").waitFor();
    const box = (await menu.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    await page.keyboard.press("Escape");

    await page.getByTestId("nav-menu").click();
    // Every section of the header is in the menu (the list grows as features land).
    const sections = ["Dashboard", "Projects", "Issues", "Exceptions", "Events", "Releases", "Integrations", "Chat", "Settings"];
    await expect.poll(async () => (await page.getByTestId("nav-menu-item").allTextContents()).map((text) => text.trim())).toEqual(sections);
    await page.getByTestId("nav-menu-item").filter({ hasText: "Events" }).click();
    await page.waitForURL(/\/dashboard\/events/);
    expect(problems).toEqual([]);
  }, 90_000);

  it("keeps the issue's title clear of its Status and Severity selects at 390 px (issue 37 item 5)", async () => {
    const width = 390;
    const { page, problems } = await signedInPage({ width, height: 844 });
    await page.goto(`${server.url}/dashboard/issues/${hotIssueId}?projectId=${second.id}`);
    await page.getByTestId("issue-severity-select").waitFor();
    const boxes = await page.evaluate(() =>
      ["issue-title", "issue-status-select", "issue-severity-select"].map((id) => {
        const box = document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect();
        return { id, left: box.left, right: box.right, top: box.top, bottom: box.bottom };
      }),
    );
    const [title, ...selects] = boxes;
    for (const select of selects) {
      const overlaps = title.left < select.right && select.left < title.right && title.top < select.bottom && select.top < title.bottom;
      expect(overlaps, `${select.id} ${JSON.stringify(select)} over the title ${JSON.stringify(title)}`).toBe(false);
      expect(select.right, select.id).toBeLessThanOrEqual(width);
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it("opens an issue or an exception from anywhere on its row, not only from its title or 8-character id (issue 37 item 12)", async () => {
    const { page, problems } = await signedInPage();
    await page.goto(`${server.url}/dashboard/issues?projectId=${second.id}`);
    const hotRow = page.locator(`[data-testid="issue-row"][data-issue-id="${hotIssueId}"]`);
    // A person's click on a plain cell (Playwright's own click refuses a point the row's link covers).
    const clickCentre = async (locator: Locator) => {
      await locator.scrollIntoViewIfNeeded();
      const box = (await locator.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    };
    await clickCentre(hotRow.getByTestId("issue-event-count"));
    await page.waitForURL(new RegExp(`/dashboard/issues/${hotIssueId}`), { waitUntil: "commit" });
    await page.getByTestId("issue-detail").waitFor();

    // The bulk-selection checkbox still selects, it does not open the issue.
    await page.goBack();
    await hotRow.getByTestId("issue-checkbox").click();
    await expect.poll(() => hotRow.getAttribute("data-state")).toBe("selected");
    expect(new URL(page.url()).pathname).toBe("/dashboard/issues");

    await page.goto(`${server.url}/dashboard/exceptions?projectId=${second.id}`);
    const row = page.getByTestId("exception-row").first();
    const exceptionId = await row.getAttribute("data-exception-id");
    await clickCentre(row.locator("td").last());
    await page.waitForURL(new RegExp(`/exceptions/${exceptionId}`), { waitUntil: "commit" });
    expect(problems).toEqual([]);
  }, 60_000);

  it("shows the latest exception's stack trace on the issue page itself (issue 37 item 12)", async () => {
    const { page, problems } = await signedInPage();
    const issue = (await session.query("issue.get", { projectId: second.id, issueId: hotIssueId })).data;
    await page.goto(`${server.url}/dashboard/issues/${hotIssueId}?projectId=${second.id}`);
    const trace = page.getByTestId("issue-latest-stack-trace");
    await trace.waitFor();
    expect(await trace.getAttribute("data-exception-id")).toBe(issue.latestExceptionId);
    // The crashing frame's function, without opening the exception page.
    await expect.poll(() => trace.getByTestId("frame-function").allInnerTexts()).toContain("hotHandler");
    expect(new URL(page.url()).pathname).toBe(`/dashboard/issues/${hotIssueId}`);
    expect(problems).toEqual([]);
  }, 60_000);

  it("shows a new project waiting for the first event with its DSN until one arrives (issue 37 item 12)", async () => {
    const fresh = await createTriageProject(session, "fresh-api");
    const { dsn } = (await session.query("project.get", { projectId: fresh.id })).data;
    const { page, problems } = await signedInPage();
    await page.goto(`${server.url}/dashboard/projects/${fresh.id}/settings`);
    const waiting = page.getByTestId("first-event-waiting");
    await waiting.waitFor();
    expect(await waiting.innerText()).toContain("Waiting for the first event");
    expect(await page.getByTestId("first-event-dsn").innerText()).toBe(dsn);

    await sendEvent(server, fresh, { type: "FirstError", value: "hello", fn: "firstHandler" });
    await page.getByTestId("first-event-received").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("first-event-waiting").count()).toBe(0);

    // The issue list's empty state waits too, and gives way to the issue when it arrives.
    const other = await createTriageProject(session, "fresh-web");
    await page.goto(`${server.url}/dashboard/issues?projectId=${other.id}`);
    await page.getByTestId("issues-empty").getByTestId("first-event-waiting").waitFor();
    await sendEvent(server, other, { type: "FirstError", value: "hello", fn: "firstHandler" });
    await expect.poll(() => page.getByTestId("issue-row").count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId("first-event-waiting").count()).toBe(0);

    // A project that has issues shows neither.
    await page.goto(`${server.url}/dashboard/projects/${second.id}/settings`);
    await page.getByTestId("project-dsn").waitFor();
    await page.waitForLoadState("networkidle");
    expect(await page.getByTestId("first-event-waiting").count()).toBe(0);
    expect(await page.getByTestId("first-event-received").count()).toBe(0);
    expect(problems).toEqual([]);
  }, 60_000);

  it("keeps the original DSN when a key is added and changes it only through 'Make primary' (item 22)", async () => {
    const { page, problems } = await signedInPage();
    await page.goto(`${server.url}/dashboard/projects/${first.id}/settings`);
    const original = await page.getByTestId("project-dsn").innerText();
    expect(original).toContain(first.apiKey);
    await page.getByTestId("create-key").click();
    await page.getByTestId("new-key-label").fill("Mobile app");
    await page.getByTestId("new-key-submit").click();
    await expect.poll(() => page.getByTestId("project-key-row").count()).toBe(2);
    expect(await page.getByTestId("project-dsn").innerText()).toBe(original);
    const added = page.getByTestId("project-key-row").filter({ hasText: "Mobile app" });
    expect(await added.getAttribute("data-primary")).toBeNull();

    await added.getByTestId("make-primary-key").click();
    await page.getByTestId("confirm-submit").click();
    await expect.poll(() => added.getAttribute("data-primary")).toBe("true");
    const keys = (await session.query("project.get", { projectId: first.id })).data.keys as { label: string; dsn: string }[];
    const mobile = keys.find((key) => key.label === "Mobile app")!;
    await expect.poll(() => page.getByTestId("project-dsn").innerText()).toBe(mobile.dsn);
    expect(await added.getByTestId("primary-key-badge").count()).toBe(1);
    expect(problems).toEqual([]);
  }, 60_000);

  it("styles the outbox and serves its icon (item 24)", async () => {
    const { page, problems } = await newPage(browser);
    const failed: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${server.url}/dev/outbox`);
    const look = await page.evaluate(() => ({
      font: getComputedStyle(document.body).fontFamily,
      icon: document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href,
      cardRadius: getComputedStyle(document.querySelector("li")!).borderRadius,
    }));
    expect(look.font).toContain("system-ui");
    expect(look.cardRadius).toBe("10px");
    expect((await page.request.get(look.icon!)).status()).toBe(200);
    expect((await page.request.get(`${server.url}/favicon.ico`)).status()).toBe(200);
    expect(failed).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);
});
