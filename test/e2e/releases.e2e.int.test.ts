import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import { seedCommits, seedDeploy, seedHealthHour, seedHealthUser, seedRelease } from "../helpers/release-seed";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { hoursAgo, sendEvent, triageTenant, type TriageProject } from "../helpers/triage-seed";
import type { HttpSession } from "../helpers/http-session";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BUILT_CLIENT = path.join(ROOT, "dist/client/index.html");

/** Releases (issue 34) in a real browser: the list with health and an environment filter, one release's page, the issue's suspect commits. */
describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("the Releases screens in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let session: HttpSession;
  let project: TriageProject;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    const tenant = await triageTenant(server, "Release Screens");
    ({ session, project } = tenant);
    const db = server.services.db;
    const scope = { organizationId: tenant.org.id, projectId: project.id };
    const v1 = await seedRelease(db, { ...scope, version: "web@1.0.0", createdAt: hoursAgo(48) });
    await seedRelease(db, { ...scope, version: "web@2.0.0", createdAt: hoursAgo(4) });
    await seedHealthHour(db, { ...scope, release: "web@1.0.0", environment: "production", hour: hoursAgo(2), sessions: 200, crashed: 3 });
    await seedHealthHour(db, { ...scope, release: "web@2.0.0", environment: "staging", hour: hoursAgo(1), sessions: 50, crashed: 0 });
    await seedHealthUser(db, { ...scope, release: "web@1.0.0", environment: "production", day: hoursAgo(2), userKey: "a", crashed: true });
    await seedHealthUser(db, { ...scope, release: "web@1.0.0", environment: "production", day: hoursAgo(2), userKey: "b" });
    await seedDeploy(db, tenant.org.id, v1, "production", hoursAgo(40));
    await seedCommits(db, tenant.org.id, v1, [
      { commitId: "a1".padEnd(40, "0"), message: "Speed up the cart <b>now</b>", authorName: "Ada", files: ["src/app/handlers.js"] },
      { commitId: "b2".padEnd(40, "0"), message: "Update the docs", authorName: "Bob", files: ["docs/readme.md"] },
    ]);
    await sendEvent(server, project, { type: "CartError", value: "total is NaN", fn: "total", release: "web@1.0.0" });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("lists releases with health, filters by environment, opens a release and shows the issue's suspect commits", async () => {
    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(`${server.url}/dashboard/releases?projectId=${project.id}`);
    const rows = page.getByTestId("release-row");
    await rows.first().waitFor();
    expect(await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-version")))).toEqual(["web@2.0.0", "web@1.0.0"]);
    const v1 = page.locator('[data-testid="release-row"][data-version="web@1.0.0"]');
    // 197 of 200 sessions without a crash; one of two users crashed; 200 of the last day's 250 sessions.
    expect(await v1.getByTestId("crash-free-sessions").innerText()).toBe("98.50 %");
    expect(await v1.getByTestId("crash-free-users").innerText()).toBe("50.00 %");
    expect(await v1.getByTestId("adoption").innerText()).toBe("80.00 %");
    expect(await v1.getByTestId("new-issues").innerText()).toBe("1");

    await page.getByTestId("release-environment").selectOption("staging");
    await page.waitForURL(/environment=staging/);
    await expect.poll(() => rows.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-version")))).toEqual(["web@2.0.0"]);
    expect(await rows.first().getByTestId("adoption").innerText()).toBe("100.00 %");
    await page.getByTestId("release-environment").selectOption("");
    await page.locator('[data-testid="release-row"][data-version="web@1.0.0"]').getByTestId("release-link").click();

    await page.getByTestId("release-detail").waitFor();
    expect(await page.getByTestId("release-crash-free-sessions").innerText()).toBe("98.50 %");
    const commits = page.getByTestId("release-commit");
    expect(await commits.count()).toBe(2);
    // A commit message is text, never markup.
    expect(await commits.first().innerText()).toContain("Speed up the cart <b>now</b>");
    expect(await page.getByTestId("release-deploy").innerText()).toContain("production");
    expect(await page.getByTestId("release-artifacts").innerText()).toContain("0 bundles");
    await page.getByTestId("release-health-chart").waitFor();
    const issue = page.getByTestId("release-new-issues").getByTestId("release-issue");
    expect(await issue.innerText()).toContain("CartError");

    await issue.getByRole("link").click();
    const suspects = page.getByTestId("suspect-commits");
    await suspects.getByTestId("suspect-commit").first().waitFor();
    expect(await suspects.getByTestId("suspect-commit").count()).toBe(1);
    expect(await suspects.getByTestId("suspect-commit").innerText()).toContain("Ada");
    expect(await suspects.getByTestId("first-deploy").innerText()).toContain("First deployed to production");
    // And on the activity timeline, in date order among the changes.
    expect(await page.locator('[data-testid="issue-activity-entry"][data-kind="first_deploy"]').innerText()).toContain(
      "Release web@1.0.0, where it was first seen, was first deployed to production",
    );

    await page.goto(`${server.url}/dashboard/releases/${encodeURIComponent("web@9.9.9")}?projectId=${project.id}`);
    await page.getByTestId("not-found-release").waitFor();
    expect(problems).toEqual([]);
  }, 120_000);

  it("explains how to create releases when the project has none", async () => {
    const empty = (await session.mutation("project.create", { name: "No releases", platform: "NODE_JS" })).data;
    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(`${server.url}/dashboard/releases?projectId=${empty.id}`);
    await page.getByTestId("releases-empty").waitFor();
    expect(await page.getByTestId("releases-cli").innerText()).toContain(`sentry-cli releases new "$VERSION" --project ${empty.slug}`);
    expect(problems).toEqual([]);
  }, 60_000);
});
