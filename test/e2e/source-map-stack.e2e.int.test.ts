import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { occurrences } from "../../src/server/db/schema/index";
import type { NormalizedOccurrence } from "../../src/shared/occurrence.types";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { sentryCli } from "../helpers/sentry-cli";
import { startCustomerSite, type CustomerSite } from "../helpers/customer-site";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BUILT_CLIENT = path.join(ROOT, "dist/client/index.html");

const PRICE = `export function formatPrice(cents) {
  if (cents < 0) {
    throw new RangeError("negative price: " + cents);
  }
  return (cents / 100).toFixed(2);
}

export function renderPrice(cents) {
  return "EUR " + formatPrice(cents);
}
`;

/** A shop page: the real @sentry/browser, bundled and minified with the app, reporting one error. */
const APP = `import * as Sentry from "@sentry/browser";
import { renderPrice } from "./price.js";
Sentry.init({ dsn: window.FAULTLINE_DSN, release: "web@1.0.0", defaultIntegrations: false });
window.checkout = async () => {
  try {
    renderPrice(-5);
  } catch (error) {
    const id = Sentry.captureException(error);
    await Sentry.flush(5000);
    return id;
  }
};
`;

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("a minified browser app's error in Chromium, read through its uploaded source map", () => {
  let server: TestServer;
  let site: CustomerSite | undefined;
  let siteUrl: string;
  let browser: Browser;
  let session: HttpSession;
  let work: string;
  let project: { id: string; slug: string; dsn: string };

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    work = mkdtempSync(path.join(tmpdir(), "faultline-browser-maps-"));
    ({ session } = await signUpVerified(server, { name: "Frontend Dev" }));
    const orgSlug = (await createOrganization(session, "Storefront")).slug;
    project = (await session.mutation("project.create", { name: "Storefront Web", platform: "BROWSER_JS" })).data;
    const token = (await session.mutation("apiToken.create", { name: "ci", scopes: ["project:releases"] })).data.secret;

    await mkdir(path.join(work, "src"), { recursive: true });
    await writeFile(path.join(work, "src/price.js"), PRICE);
    await writeFile(path.join(work, "src/app.js"), APP);
    await build({
      entryPoints: [path.join(work, "src/app.js")],
      outfile: path.join(work, "dist/assets/app.js"),
      bundle: true,
      minify: true,
      sourcemap: true,
      format: "iife",
      nodePaths: [path.join(ROOT, "node_modules")],
      logLevel: "silent",
    });
    const target = { url: server.url, token, org: orgSlug, project: project.slug, work };
    await sentryCli(target, ["sourcemaps", "inject", path.join(work, "dist")]);
    await sentryCli(target, ["sourcemaps", "upload", "--wait", path.join(work, "dist")]);

    // The shop itself, on its own loopback origin.
    site = await startCustomerSite(project.dsn, { scriptPath: "/assets/app.js", scriptFile: path.join(work, "dist/assets/app.js") });
    siteUrl = site.url;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("shows the original function, file, line and code in the exception API and on the screen, and the minified frame on request", async () => {
    const { page: shop } = await newPage(browser);
    await shop.goto(`${siteUrl}/`);
    const eventId = (await shop.evaluate("window.checkout()")) as string;
    expect(eventId).toMatch(/^[0-9a-f]{32}$/);

    // The SDK's flush may give up before a busy server answers: the event is stored all the same.
    const stored = () =>
      server.database.db
        .select({ id: occurrences.id, issueId: occurrences.issueId })
        .from(occurrences)
        .where(and(eq(occurrences.projectId, project.id), eq(occurrences.eventId, eventId)));
    await expect.poll(async () => (await stored()).length, { timeout: 30_000 }).toBe(1);
    const [row] = await stored();
    const detail = await session.query<{ data: NormalizedOccurrence }>("exception.get", { projectId: project.id, exceptionId: row.id });
    const frames = detail.data!.data.exceptions.at(-1)!.frames.filter((frame) => frame.symbolication);
    const crashing = frames.at(-1)!;
    expect(crashing).toMatchObject({ symbolication: "mapped", function: "formatPrice", filename: expect.stringMatching(/src\/price\.js$/), lineno: 3 });
    expect(crashing.contextLine).toContain('throw new RangeError("negative price: " + cents);');
    expect(crashing.raw?.filename).toBe(`${siteUrl}/assets/app.js`);

    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(`${server.url}/dashboard/issues/${row.issueId}/exceptions/${row.id}?projectId=${project.id}`);
    await page.getByTestId("stack-frame").first().waitFor();
    const first = page.getByTestId("stack-frame").first();
    expect(await first.getByTestId("frame-function").innerText()).toBe("formatPrice");
    expect(await first.getByTestId("frame-location").innerText()).toMatch(/src\/price\.js:3:\d+$/);
    expect(await page.getByTestId("frame-context").first().innerText()).toContain("negative price");

    // The frames as the SDK sent them: the bundle's URL and minified position.
    await page.getByTestId("minified-toggle").click();
    await expect.poll(() => first.getByTestId("frame-location").innerText()).toMatch(/assets\/app\.js:\d+:\d+$/);
    expect(await first.getByTestId("frame-function").innerText()).not.toBe("formatPrice");
    expect(problems).toEqual([]);
  });
});
