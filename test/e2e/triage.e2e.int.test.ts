import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { runSentryNode } from "../helpers/run-sentry-node";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("triage in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let session: HttpSession;
  let project: { id: string; dsn: string; number: number; apiKey: string };

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    ({ session } = await signUpVerified(server, { name: "Tess Triage" }));
    await createOrganization(session, "Triage Org");
    project = (await session.mutation("project.create", { name: "shop-api", platform: "NODE_JS" })).data;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const issues = async () =>
    (await session.query("issue.list", { projectId: project.id })).data.items as {
      id: string;
      title: string;
      culprit: string;
      status: string;
      isRegression: boolean;
      eventCount: number;
    }[];
  const issueFor = async (fn: string) => (await issues()).find((issue) => issue.culprit?.includes(fn))!;

  it("groups a real SDK's errors, filters by environment, shows the stack, and handles resolve, regression and ignore", async () => {
    await runSentryNode(project.dsn, 3, "plain", { environment: "production", handler: "lookup" });
    await runSentryNode(project.dsn, 2, "plain", { environment: "staging", handler: "search" });
    // Same type and message from two functions: two issues, as the fixtures expect.
    expect(await issues()).toHaveLength(2);

    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(`${server.url}/dashboard/issues?projectId=${project.id}`);
    await expect.poll(() => page.getByTestId("issue-row").count()).toBe(2);
    await page.getByTestId("filter-env-STAGING").click();
    await expect.poll(() => page.getByTestId("issue-row").count()).toBe(1);
    const staging = await issueFor("searchHandler");
    expect(await page.getByTestId("issue-row").first().getAttribute("data-issue-id")).toBe(staging.id);

    // Open the issue, then its latest exception's stack trace.
    await page.getByTestId("issue-row").first().getByTestId("issue-title").click();
    await page.waitForURL(new RegExp(`/dashboard/issues/${staging.id}`), { waitUntil: "commit" });
    await page.goto(`${server.url}/dashboard/issues/${staging.id}/exceptions/?projectId=${project.id}`);
    await page.getByTestId("exception-row").first().locator("a").first().click();
    await page.getByTestId("stack-frame").first().waitFor();
    expect(await page.getByTestId("stack-frames").first().innerText()).toContain("searchHandler");

    // Resolve through the UI; a new occurrence reopens it as a regression.
    await page.goto(`${server.url}/dashboard/issues/${staging.id}/?projectId=${project.id}`);
    await page.getByTestId("issue-status-select").selectOption("RESOLVED");
    await expect.poll(async () => (await issueFor("searchHandler")).status).toBe("RESOLVED");
    await runSentryNode(project.dsn, 1, "plain", { environment: "staging", handler: "search" });
    const reopened = await issueFor("searchHandler");
    expect(reopened).toMatchObject({ status: "OPEN", isRegression: true, eventCount: 3 });
    await page.reload();
    await page.getByTestId("issue-regression").first().waitFor();
    expect(await page.getByTestId("issue-status-select").inputValue()).toBe("OPEN");
    await page.getByTestId("issue-activity").waitFor();
    expect(await page.getByTestId("issue-activity").innerText()).toContain("Tess Triage");

    // Ignore the other issue; more events keep counting but it stays ignored.
    const production = await issueFor("failingLookup");
    await page.goto(`${server.url}/dashboard/issues/${production.id}/?projectId=${project.id}`);
    await page.getByTestId("issue-status-select").selectOption("IGNORED");
    await expect.poll(async () => (await issueFor("failingLookup")).status).toBe("IGNORED");
    await runSentryNode(project.dsn, 2, "plain", { environment: "production", handler: "lookup" });
    expect(await issueFor("failingLookup")).toMatchObject({ status: "IGNORED", isRegression: false, eventCount: 5 });
    expect(problems).toEqual([]);
  }, 120_000);

  it("renders hostile event fields as text: no dialogs, no injected elements, no javascript: links (battery J1)", async () => {
    const hostile = "<img src=x onerror=alert(1)>";
    const eventId = crypto.randomUUID().replaceAll("-", "");
    const event = {
      event_id: eventId,
      level: "error",
      environment: "production",
      release: "<b>rel</b>",
      message: `${hostile} \u001b[31mred\u001b[0m`,
      exception: {
        values: [
          {
            type: "<svg onload=alert(2)>",
            value: `<script>alert(3)</script> javascript:alert(4) \u001b[1;33mANSI\u001b[0m`,
            stacktrace: {
              frames: [
                {
                  function: hostile,
                  filename: "javascript:alert(6)",
                  lineno: 1,
                  in_app: true,
                  context_line: "<script>alert(7)</script>\u001b[32mgreen\u001b[0m",
                  pre_context: ["<iframe src=javascript:alert(8)>"],
                  post_context: [hostile],
                },
              ],
            },
          },
        ],
      },
      request: { url: "javascript:alert(10)", method: "GET", query_string: hostile, headers: { "X-Evil": hostile, Referer: "javascript:alert(13)" } },
      user: { id: hostile, email: "javascript:alert(15)", username: "\u001b[31mroot\u001b[0m" },
      tags: { "<b>key</b>": hostile, link: "javascript:alert(17)" },
      contexts: { os: { name: hostile } },
      breadcrumbs: {
        values: [{ timestamp: Date.now() / 1000, category: "<b>ui</b>", message: `\u001b[31m${hostile}\u001b[0m`, data: { href: "javascript:alert(21)" } }],
      },
      extra: { payload: hostile },
    };
    const ingest = await fetch(`${server.url}/api/${project.number}/envelope/?sentry_key=${project.apiKey}`, {
      method: "POST",
      body: `{}\n{"type":"event"}\n${JSON.stringify(event)}\n`,
    });
    expect(ingest.status).toBe(200);
    const native = await fetch(`${server.url}/api/v1/events`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": project.apiKey },
      body: JSON.stringify({ name: hostile, properties: { note: hostile, link: "javascript:alert(30)" } }),
    });
    expect(native.status).toBe(201);
    const issue = (await issues()).find((row) => row.title.includes("<svg"))!;
    const [exception] = (await session.query("exception.list", { projectId: project.id, issueId: issue.id })).data.items;

    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    const screens = [
      `/dashboard/issues?projectId=${project.id}`,
      `/dashboard/issues/${issue.id}/?projectId=${project.id}`,
      `/dashboard/issues/${issue.id}/exceptions/${exception.id}?projectId=${project.id}`,
      `/dashboard/events?projectId=${project.id}`,
      `/dashboard/exceptions?projectId=${project.id}`,
    ];
    for (const screen of screens) {
      await page.goto(`${server.url}${screen}`);
      await page.waitForLoadState("networkidle");
      // The data can land after the network went idle on a slow machine: wait for the event's text
      // (a screen that never shows it still fails, on the timeout or the report below).
      await page.waitForFunction(() => document.body.innerText.includes("alert("), undefined, { timeout: 15_000 }).catch(() => undefined);
      if (screen.includes("/exceptions/")) {
        await page.getByTestId("stack-frame").first().waitFor();
        await page.getByTestId("exception-tab-raw").click();
        await page.getByTestId("exception-raw-json").waitFor();
      }
      const report = await page.evaluate(() => ({
        injected: document.querySelectorAll("img[src='x'], svg[onload], iframe, script:not([src])").length,
        javascriptLinks: [...document.querySelectorAll("a[href]")].filter((a) => a.getAttribute("href")!.trim().toLowerCase().startsWith("javascript:")).length,
        escapeChars: document.body.innerText.includes("\u001b"),
        hostileShownAsText: document.body.innerText.includes("alert("),
      }));
      expect(report, screen).toEqual({ injected: 0, javascriptLinks: 0, escapeChars: false, hostileShownAsText: true });
    }
    expect(problems).toEqual([]);
  }, 90_000);
});
