import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { issueByType, sendEvent, triageTenant } from "../helpers/triage-seed";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

/** Issue 35 in a real browser: the storage card lists the project, and the issue's Export menu downloads and copies Markdown. */
describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("exports and storage in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    tenant = await triageTenant(server, "Export Browser");
    for (const value of ["first", "second", "third"]) await sendEvent(server, tenant.project, { type: "BrowserExportError", value, fn: "browserExport" });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows the project's stored occurrences on the storage card", async () => {
    const { page, problems } = await newPage(browser);
    await signInPage(page, tenant.session, server.url);
    await page.goto(`${server.url}/settings/organization`);
    const row = page.locator(`[data-testid="storage-row"][data-project-id="${tenant.project.id}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain("Export Browser project");
    expect(await row.getByTestId("storage-occurrences").innerText()).toBe("3");
    expect(problems).toEqual([]);
  });

  it("downloads the issue as Markdown and copies it to the clipboard from the Export menu", async () => {
    const issue = await issueByType(tenant.session, tenant.project.id, "BrowserExportError");
    const { page, problems } = await newPage(browser);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await signInPage(page, tenant.session, server.url);
    await page.goto(`${server.url}/dashboard/issues/${issue.id}?projectId=${tenant.project.id}`);

    await page.getByTestId("issue-export").click();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-markdown").click()]);
    expect(download.suggestedFilename()).toBe(`issue-${issue.id.slice(0, 8)}.md`);
    const markdown = await readFile((await download.path())!, "utf8");
    expect(markdown.startsWith("# BrowserExportError: ")).toBe(true);
    expect(markdown).toContain("#### Exception: BrowserExportError: third");
    expect(markdown).toContain("  at browserExport (/app/handlers.js:42)");

    await page.getByTestId("issue-export").click();
    await page.getByTestId("copy-markdown").click();
    await page.getByText("The issue as Markdown is in the clipboard").waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.startsWith("# BrowserExportError: ")).toBe(true);
    expect(copied).toContain("## Latest occurrences (3 of 3");
    expect(problems).toEqual([]);
  });
});
