import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../auth/org-kit";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { sentryCli } from "../helpers/sentry-cli";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BUILT_CLIENT = path.join(ROOT, "dist/client/index.html");
const RELEASE = "shop@1.4.0";

/** Project settings → Source maps (issue 33): a bundle uploaded by the real sentry-cli is listed, the snippets name this project, deleting it empties the list. */
describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("the Source maps section of project settings in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: HttpSession;
  let member: HttpSession;
  let org: { id: string; slug: string };
  let project: { id: string; slug: string };
  let token: string;
  let work: string;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    ({ session: owner } = await signUpVerified(server, { name: "Sam Sourcemap" }));
    org = await createOrganization(owner, "Map Shop");
    project = (await owner.mutation("project.create", { name: "Web Shop", platform: "REACT" })).data;
    token = (await owner.mutation("apiToken.create", { name: "ci", scopes: ["project:releases"] })).data.secret;
    member = (await addMember(server, owner, org.id, "member", "Mia Member")).session;
    work = mkdtempSync(path.join(tmpdir(), "faultline-source-maps-e2e-"));
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A minified bundle and its map built by the real esbuild, debug ids injected and uploaded for a release by the real sentry-cli (loopback only). */
  async function uploadBundle() {
    await mkdir(path.join(work, "src"), { recursive: true });
    await writeFile(
      path.join(work, "src/app.js"),
      `export function renderPrice(cents) {\n  if (cents < 0) throw new Error("negative price");\n  return (cents / 100).toFixed(2);\n}\nrenderPrice(1);\n`,
    );
    await build({
      entryPoints: [path.join(work, "src/app.js")],
      outfile: path.join(work, "dist/app.js"),
      bundle: true,
      minify: true,
      sourcemap: true,
      logLevel: "silent",
    });
    const dist = path.join(work, "dist");
    const target = { url: server.url, token, org: org.slug, project: project.slug, work };
    await sentryCli(target, ["sourcemaps", "inject", dist]);
    await sentryCli(target, ["sourcemaps", "upload", "--release", RELEASE, dist]);
    // Assembly runs on the job queue: wait until the bundle is listed.
    let bundles: { release: string | null; fileCount: number }[] = [];
    await expect
      .poll(
        async () => {
          bundles = (await owner.query("sourceMap.list", { projectId: project.id })).data ?? [];
          return bundles.length;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(1);
    return bundles[0];
  }

  it("lists an uploaded bundle with its release and files, fills the snippets in for the project, hides deletion from a member, and deletes it", async () => {
    const uploaded = await uploadBundle();
    expect(uploaded.release).toBe(RELEASE);
    expect(uploaded.fileCount).toBe(2); // app.js and app.js.map

    const { page, problems } = await newPage(browser);
    await signInPage(page, owner, server.url);
    await page.goto(`${server.url}/dashboard/projects/${project.id}/settings`);
    const card = page.getByTestId("source-maps");
    const row = card.getByTestId("source-map-bundle");
    await row.waitFor();
    expect(await row.getAttribute("data-release")).toBe(RELEASE);
    expect(await card.getByTestId("source-map-release").innerText()).toContain(`Release ${RELEASE}`);
    expect((await row.getByTestId("source-map-files").innerText()).trim()).toBe("2");

    const cli = await card.getByTestId("source-maps-snippet-cli").innerText();
    expect(cli).toContain(
      `export SENTRY_URL=${server.url}\nexport SENTRY_ORG=${org.slug}\nexport SENTRY_PROJECT=${project.slug}\nexport SENTRY_AUTH_TOKEN=flt_YOUR_TOKEN`,
    );
    expect(cli).toContain("npx @sentry/cli sourcemaps inject ./dist && npx @sentry/cli sourcemaps upload ./dist");
    await card.getByRole("tab", { name: "Vite plugin" }).click();
    expect(await card.getByTestId("source-maps-snippet-vite").innerText()).toContain(`project: "${project.slug}",`);
    expect(await card.getByTestId("source-maps-token-link").getAttribute("href")).toBe("/settings/organization#api-tokens");

    // A member reads the list but is offered no deletion.
    const asMember = await newPage(browser);
    await signInPage(asMember.page, member, server.url);
    await asMember.page.goto(`${server.url}/dashboard/projects/${project.id}/settings`);
    const memberCard = asMember.page.getByTestId("source-maps");
    await memberCard.getByTestId("source-map-bundle").waitFor();
    await memberCard.getByText("Your role cannot manage releases.").waitFor();
    expect(await memberCard.getByTestId("delete-source-map-bundle").count()).toBe(0);
    expect(await memberCard.getByTestId("delete-source-map-release").count()).toBe(0);
    expect(asMember.problems).toEqual([]);

    await row.getByTestId("delete-source-map-bundle").click();
    await page.getByTestId("confirm-submit").click();
    await card.getByTestId("source-maps-empty").waitFor();
    expect(await card.getByTestId("source-map-bundle").count()).toBe(0);
    expect((await owner.query("sourceMap.list", { projectId: project.id })).data).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);
});
