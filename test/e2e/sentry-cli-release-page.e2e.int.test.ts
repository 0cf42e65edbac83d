import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import { GitRepo } from "../helpers/git-repo";
import { sentryCli } from "../helpers/sentry-cli";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BUILT_CLIENT = path.join(ROOT, "dist/client/index.html");

/** What the real sentry-cli 3.x writes (issue 34) is what a release's page shows in a real browser, until `releases delete`. */
describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("a release made by the real sentry-cli 3.x, on its page in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let work: string;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    work = mkdtempSync(path.join(tmpdir(), "faultline-cli-release-page-"));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("shows the commits set-commits sent, the production deploy and the finalized date; after delete, not found", { timeout: 120_000 }, async () => {
    const { session } = await signUpVerified(server);
    const org = await createOrganization(session, "CLI Page");
    const project = (await session.mutation("project.create", { name: "Web Shop", platform: "NODE_JS" })).data;
    const token = (await session.mutation("apiToken.create", { name: "ci", scopes: ["project:releases"] })).data.secret as string;
    const repo = new GitRepo(path.join(work, "repo"));
    const cli = (...args: string[]) => sentryCli({ url: server.url, token, org: org.slug, project: project.slug, work: repo.dir }, args, "3.x");

    const first = repo.commit("Add the price formatter", { "src/price.js": "export const price = 1;\n" });
    const second = repo.commit("Format prices in cents\n\nLonger body.", { "src/price.js": "export const price = 100;\n" }, "Grace Hopper <grace@example.com>");
    const version = "shop@2.4.0";
    await cli("releases", "new", version);
    await cli("releases", "set-commits", version, "--local");
    await cli("deploys", "new", "--release", version, "-e", "production", "-n", "Friday deploy");
    await cli("releases", "finalize", version);

    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    const releasePage = `${server.url}/dashboard/releases/${encodeURIComponent(version)}?projectId=${project.id}`;
    await page.goto(releasePage);
    await page.getByTestId("release-detail").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(version);
    // The finalized release says when it was released, not "not finalized".
    expect(await page.locator("main").innerText()).toContain("· released ");
    expect(await page.locator("main").innerText()).not.toContain("not finalized");
    const commits = page.getByTestId("release-commit");
    expect(await commits.count()).toBe(2);
    // Newest first: the message's first line, the short id, the repository (the git remote's name) and the author.
    expect(await commits.nth(0).innerText()).toContain("Format prices in cents");
    expect(await commits.nth(0).innerText()).toContain(second.slice(0, 12));
    expect(await commits.nth(0).innerText()).toContain("origin · Grace Hopper");
    expect(await commits.nth(1).innerText()).toContain("Add the price formatter");
    expect(await commits.nth(1).innerText()).toContain(first.slice(0, 12));
    const deploy = page.getByTestId("release-deploy");
    expect(await deploy.count()).toBe(1);
    expect(await deploy.innerText()).toContain("production");
    expect(await deploy.innerText()).toContain("Friday deploy");

    await cli("releases", "delete", version);
    await page.goto(releasePage);
    await page.getByTestId("not-found-release").waitFor();
    expect(problems).toEqual([]);
  });
});
