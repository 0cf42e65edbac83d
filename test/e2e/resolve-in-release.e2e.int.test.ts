import { existsSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { member, releases } from "../../src/server/db/schema/index";
import { addReleaseProjects, upsertRelease } from "../../src/server/releases/release.queries";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";
import { issueByType, sendEvent, type TriageProject } from "../helpers/triage-seed";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

/** Issue 34: "Resolve in next release" on the issue page, then ingest keeps it resolved or reopens it, and the activity says which release. */
describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("resolve in the next release in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let session: HttpSession;
  let organizationId: string;
  let project: TriageProject;

  async function seedRelease(version: string, day: number) {
    const { row } = await upsertRelease(server.database.db, organizationId, version, {});
    await server.database.db
      .update(releases)
      .set({ createdAt: new Date(Date.parse("2026-11-01T00:00:00Z") + day * 86_400_000) })
      .where(eq(releases.id, row.id));
    await addReleaseProjects(server.database.db, organizationId, row.id, [project.id]);
  }

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    ({ session } = await signUpVerified(server, { name: "Rita Release" }));
    organizationId = (await createOrganization(session, "Release Org")).id;
    project = (await session.mutation("project.create", { name: "shop-web", platform: "NODE_JS" })).data;
    await seedRelease("shop@1.0.0", 0);
    await seedRelease("shop@1.1.0", 1);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("resolves in the next release from the resolve menu, stays resolved for the current release and regresses on a newer one", async () => {
    await sendEvent(server, project, { type: "CartError", value: "cart", fn: "cart", release: "shop@1.0.0" });
    const issue = await issueByType(session, project.id, "CartError");

    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(`${server.url}/dashboard/issues/${issue.id}/?projectId=${project.id}`);
    await page.getByTestId("issue-first-release").waitFor();
    expect(await page.getByTestId("issue-first-release").innerText()).toBe("First seen in shop@1.0.0");
    // The version opens that release's page.
    expect(await page.getByTestId("issue-first-release").getByRole("link").getAttribute("href")).toMatch(
      /\/dashboard\/releases\/shop(@|%40)1\.0\.0\?projectId=/,
    );

    await page.getByTestId("resolve-menu").click();
    await page.getByTestId("resolve-next-release").click();
    await page.getByTestId("issue-resolved-in-release").waitFor();
    expect(await page.getByTestId("issue-resolved-in-release").innerText()).toBe("Resolved in the next release (after shop@1.1.0)");
    expect(await page.getByTestId("issue-activity").innerText()).toContain("Rita Release resolved it in the next release (after shop@1.1.0)");

    // The release it was resolved in still has the bug: its events keep it resolved.
    await sendEvent(server, project, { type: "CartError", value: "cart", fn: "cart", release: "shop@1.1.0" });
    expect(await issueByType(session, project.id, "CartError")).toMatchObject({ status: "RESOLVED", eventCount: 2 });

    await seedRelease("shop@1.2.0", 2);
    await sendEvent(server, project, { type: "CartError", value: "cart", fn: "cart", release: "shop@1.2.0" });
    await page.reload();
    await page.getByTestId("issue-regression").first().waitFor();
    expect(await page.getByTestId("issue-activity").innerText()).toContain("Faultline reopened it as a regression in release shop@1.2.0");
    expect(await page.getByTestId("issue-resolved-in-release").count()).toBe(0);
    expect(await page.getByTestId("issue-last-release").innerText()).toBe("Last seen in shop@1.2.0");

    // "Resolve in release…" picks from the project's releases, newest first.
    await page.getByTestId("resolve-menu").click();
    await page.getByTestId("resolve-in-release").click();
    const picker = page.getByTestId("resolve-release-select");
    await picker.waitFor();
    expect((await picker.locator("option").allTextContents()).map((text) => text.split(" — ")[0])).toEqual(["shop@1.2.0", "shop@1.1.0", "shop@1.0.0"]);
    await picker.selectOption("shop@1.2.0");
    await page.getByTestId("resolve-release-confirm").click();
    await expect.poll(() => page.getByTestId("issue-resolved-in-release").textContent()).toBe("Resolved in release shop@1.2.0");
    expect(await page.getByTestId("issue-activity").innerText()).toContain("Rita Release resolved it in release shop@1.2.0");
    await sendEvent(server, project, { type: "CartError", value: "cart", fn: "cart", release: "shop@1.1.0" });
    expect(await issueByType(session, project.id, "CartError")).toMatchObject({ status: "RESOLVED", eventCount: 4 });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows a role without issue:triage the resolve menu disabled, with the reason", async () => {
    const issue = await issueByType(session, project.id, "CartError");
    const viewer = await signUpVerified(server, { name: "Vic Viewer" });
    // "viewer" is no built-in role: it grants nothing (permissions.ts), as a custom role without issue:triage.
    await server.database.db.insert(member).values({ organizationId, userId: viewer.userId, role: "viewer", createdAt: new Date() });
    await viewer.session.request("/api/auth/organization/set-active", { body: { organizationId } });
    const { page, problems } = await newPage(browser);
    await signInPage(page, viewer.session, server.url);
    await page.goto(`${server.url}/dashboard/issues/${issue.id}/?projectId=${project.id}`);
    await page.getByText("Your role cannot change issues").waitFor();
    expect(await page.getByTestId("resolve-menu").isDisabled()).toBe(true);
    expect(await page.getByTestId("issue-status-select").count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
