import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("organization settings → Repositories in a real browser (issue 34)", () => {
  let server: TestServer;
  let browser: Browser;
  let session: HttpSession;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    ({ session } = await signUpVerified(server, { name: "Rita Repo" }));
    await createOrganization(session, "Repo Org");
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("starts empty, validates the name, adds a repository, shows a taken name on the name's line, and removes it", async () => {
    const { page, problems } = await newPage(browser);
    const { hostname } = new URL(server.url);
    await page.context().addCookies([...session.cookies].map(([name, value]) => ({ name, value, domain: hostname, path: "/" })));
    await page.goto(`${server.url}/settings/organization`);
    const card = page.getByTestId("repositories-card");
    await card.getByTestId("repositories-empty").waitFor();

    await card.getByTestId("repository-name").fill("no-slash");
    await card.getByTestId("add-repository-submit").click();
    await card.getByText("Name the repository as owner/repo").waitFor();

    await card.getByTestId("repository-name").fill("acme/web-shop");
    await card.getByTestId("repository-provider").selectOption("github");
    await card.getByTestId("repository-url").fill("https://github.com/acme/web-shop");
    await card.getByTestId("add-repository-submit").click();
    const row = card.getByTestId("repository-row");
    await row.getByText("acme/web-shop", { exact: true }).waitFor();
    expect(await row.textContent()).toContain("GitHub");
    expect(await card.getByTestId("repository-name").inputValue()).toBe("");
    expect((await session.query("repository.list")).data).toMatchObject([
      { name: "acme/web-shop", provider: "github", url: "https://github.com/acme/web-shop" },
    ]);

    await card.getByTestId("repository-name").fill("acme/web-shop");
    await card.getByTestId("add-repository-submit").click();
    await card.locator("#repository-name-error").getByText("A repository named acme/web-shop already exists").waitFor();

    await row.getByTestId("remove-repository").click();
    await page.getByRole("button", { name: "Remove repository" }).click();
    await card.getByTestId("repositories-empty").waitFor();
    expect((await session.query("repository.list")).data).toEqual([]);
    expect(problems).toEqual([]);
  });
});
