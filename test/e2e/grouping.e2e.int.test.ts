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

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("merging and splitting issues in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let session: HttpSession;
  let project: { id: string; dsn: string };

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    ({ session } = await signUpVerified(server, { name: "Mia Merge" }));
    await createOrganization(session, "Grouping Org");
    project = (await session.mutation("project.create", { name: "shop-api", platform: "NODE_JS" })).data;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const issues = async () => (await session.query("issue.list", { projectId: project.id })).data.items as { id: string; culprit: string; eventCount: number }[];

  it("merges two issues from the list into one with both histories, then splits one back out", async () => {
    // A real SDK's errors from two functions: two issues.
    await runSentryNode(project.dsn, 2, "plain", { environment: "production", handler: "lookup" });
    await runSentryNode(project.dsn, 1, "plain", { environment: "staging", handler: "search" });
    const before = await issues();
    expect(before).toHaveLength(2);
    const lookup = before.find((issue) => issue.culprit.includes("failingLookup"))!;

    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(`${server.url}/dashboard/issues?projectId=${project.id}`);
    await expect.poll(() => page.getByTestId("issue-row").count()).toBe(2);
    expect(await page.getByTestId("bulk-merge").isDisabled()).toBe(true);
    await page.getByTestId("issue-select-all").click();
    await page.getByTestId("bulk-merge").click();
    await page.getByTestId("merge-dialog").getByTestId("confirm-submit").click();

    // The merged issue (the one with more events) opens, holding both histories.
    await page.waitForURL(new RegExp(`/dashboard/issues/${lookup.id}`), { waitUntil: "commit" });
    await expect.poll(() => page.getByTestId("issue-fingerprint").count()).toBe(2);
    await page.getByTestId("issue-activity-entry").first().waitFor();
    expect(await page.getByTestId("issue-activity-entry").first().getAttribute("data-kind")).toBe("merge");
    expect(await page.getByTestId("issue-activity").innerText()).toContain("merged “TypeError: Cannot find order");
    const merged = await issues();
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ id: lookup.id, eventCount: 3 });
    await page.goto(`${server.url}/dashboard/issues/${lookup.id}/exceptions/?projectId=${project.id}`);
    await expect.poll(() => page.getByTestId("exception-row").count()).toBe(3);

    // Split the other function's fingerprint back out.
    await page.goto(`${server.url}/dashboard/issues/${lookup.id}/?projectId=${project.id}`);
    const other = page.getByTestId("issue-fingerprint").filter({ hasText: "searchHandler" });
    await other.getByTestId("unmerge-fingerprint").click();
    await page.getByTestId("unmerge-dialog").getByTestId("confirm-submit").click();
    await expect.poll(() => page.getByTestId("issue-fingerprint").count()).toBe(1);
    const after = await issues();
    expect(after).toHaveLength(2);
    expect(after.find((issue) => issue.id === lookup.id)?.eventCount).toBe(2);
    expect(after.find((issue) => issue.id !== lookup.id)).toMatchObject({ eventCount: 1 });
    expect(after.find((issue) => issue.id !== lookup.id)!.culprit).toContain("searchHandler");
    await page.getByTestId("similar-issues").waitFor();
    expect(problems).toEqual([]);
  });

  /** Issue 37, item 12: the merge dialog offers every selected issue as the one to keep, the server's default chosen. */
  it("merges into the issue the user chooses to keep, even the one with fewer events", async () => {
    const before = await issues();
    expect(before).toHaveLength(2);
    const [bigger, smaller] = [...before].sort((a, b) => b.eventCount - a.eventCount);
    expect(bigger.eventCount).toBeGreaterThan(smaller.eventCount);

    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(`${server.url}/dashboard/issues?projectId=${project.id}`);
    await expect.poll(() => page.getByTestId("issue-row").count()).toBe(2);
    await page.getByTestId("issue-select-all").click();
    await page.getByTestId("bulk-merge").click();
    const dialog = page.getByTestId("merge-dialog");
    const options = dialog.getByTestId("merge-target-option");
    await expect.poll(() => options.count()).toBe(2);
    // The default is today's: the issue with the most events.
    expect(await dialog.locator('input[name="merge-target"]:checked').inputValue()).toBe(bigger.id);
    const smallerOption = options.filter({ hasText: smaller.culprit });
    expect(await smallerOption.innerText()).toContain("1 event");
    await smallerOption.click();
    expect(await dialog.locator('input[name="merge-target"]:checked').inputValue()).toBe(smaller.id);
    await dialog.getByTestId("confirm-submit").click();

    await page.waitForURL(new RegExp(`/dashboard/issues/${smaller.id}`), { waitUntil: "commit" });
    const after = await issues();
    expect(after).toEqual([expect.objectContaining({ id: smaller.id, eventCount: bigger.eventCount + smaller.eventCount })]);
    expect(problems).toEqual([]);
  });
});
