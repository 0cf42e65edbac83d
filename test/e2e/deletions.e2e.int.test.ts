import { existsSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createTriageProject, sendEvents, triageTenant, type TriageProject } from "../helpers/triage-seed";
import { executeRows } from "../../src/server/db/execute";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("deleting a project in a real browser (issue 35)", () => {
  let server: TestServer;
  let browser: Browser;
  let session: HttpSession;
  let doomed: TriageProject;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    const tenant = await triageTenant(server, "Browser Deletions");
    session = tenant.session;
    doomed = await createTriageProject(session, "Doomed shop");
    await sendEvents(
      server,
      doomed,
      Array.from({ length: 3 }, (_, n) => ({ type: "CheckoutError", value: `boom ${n}`, fn: "charge" })),
    );
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("names what goes, deletes the project after its name is typed, and shows the deletion reach done", async () => {
    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(`${server.url}/dashboard/projects/${doomed.id}/settings`);
    await page.getByTestId("delete-project").click();
    const dialog = page.getByTestId("delete-project-dialog");
    // The confirmation names how many issues and occurrences go.
    await dialog.getByText("Its 1 issue and 3 occurrences are removed for good", { exact: false }).waitFor();
    expect(await dialog.getByTestId("confirm-submit").isDisabled()).toBe(true);
    await dialog.getByTestId("confirm-text").fill("Doomed shop");
    await dialog.getByTestId("confirm-submit").click();
    await page.waitForURL(/\/dashboard\/projects\/?$/);

    await page.goto(`${server.url}/settings/organization`);
    const row = page.getByTestId("deletions-card").getByTestId("deletion-row").filter({ hasText: "Project: Doomed shop" });
    await row.and(page.locator('[data-status="done"]')).waitFor({ timeout: 20_000 });
    expect(await row.getByTestId("deletion-progress").textContent()).toBe("4 / 4");
    const list = await session.query("project.list");
    expect(list.data.map((project: { name: string }) => project.name)).not.toContain("Doomed shop");
    expect(problems).toEqual([]);
  });
});

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("deleting an organization in a real browser (issue 35)", () => {
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

  it("names what goes, deletes the organization after its name is typed and lands in onboarding; the job leaves no organization row", async () => {
    const tenant = await triageTenant(server, "Closing shop");
    await sendEvents(
      server,
      tenant.project,
      Array.from({ length: 2 }, (_, n) => ({ type: "CheckoutError", value: `boom ${n}`, fn: "charge" })),
    );
    const { page, problems } = await newPage(browser);
    await signInPage(page, tenant.session, server.url);
    await page.goto(`${server.url}/settings/organization`);
    await page.getByTestId("delete-organization").click();
    const dialog = page.getByTestId("delete-organization-dialog");
    await dialog.getByText("Its 1 project, 1 issue and 2 occurrences are removed for good", { exact: false }).waitFor();
    await dialog.getByTestId("confirm-text").fill("Closing shop");
    await dialog.getByTestId("confirm-submit").click();
    // Its only organization gone, the person starts over, as before the deletion job.
    await page.waitForURL(/\/onboarding/);
    const [deletion] = await executeRows<{ id: string }>(
      server.database.db,
      sql`select id from deletions where kind = 'organization' and target = ${tenant.org.id}`,
    );
    await expect
      .poll(async () => (await tenant.session.query("deletion.requested", { deletionId: deletion.id })).data?.status, { timeout: 20_000, interval: 100 })
      .toBe("done");
    expect(await executeRows(server.database.db, sql`select id from organizations where id = ${tenant.org.id}`)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
