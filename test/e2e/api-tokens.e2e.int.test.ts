import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage } from "../helpers/browser";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("organization API tokens in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let session: HttpSession;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    ({ session } = await signUpVerified(server, { name: "Tara Token" }));
    orgId = (await createOrganization(session, "Token Org")).id;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("creates a token shown once that works on the REST API, then revokes it", async () => {
    const { page, problems } = await newPage(browser);
    const { hostname } = new URL(server.url);
    await page.context().addCookies([...session.cookies].map(([name, value]) => ({ name, value, domain: hostname, path: "/" })));
    await page.goto(`${server.url}/settings/organization`);
    const card = page.getByTestId("api-tokens-card");
    await card.getByText("No API tokens yet.").waitFor();

    await page.getByTestId("create-api-token").click();
    await page.getByTestId("api-token-submit").click();
    await page.getByText("Give the token a name").waitFor();
    await page.getByTestId("api-token-name").fill("CI script");
    await page.getByTestId("api-token-scope-project:read").click();
    await page.getByTestId("api-token-submit").click();
    const secret = (await page.getByTestId("api-token-secret").textContent())!.trim();
    expect(secret).toMatch(/^flt_[A-Za-z0-9_-]{40}$/);
    await page.getByRole("button", { name: "Done" }).click();

    const row = card.getByTestId("api-token-row");
    await row.getByText("CI script").waitFor();
    expect(await row.textContent()).not.toContain(secret);
    expect(await row.textContent()).toContain("project:read");

    const api = new HttpSession(server.url, null);
    const projects = await api.request(`/api/v1/organizations/${orgId}/projects`, { headers: { authorization: `Bearer ${secret}` } });
    expect(projects.status, projects.text).toBe(200);

    await row.getByTestId("revoke-api-token").click();
    await page.getByRole("button", { name: "Revoke token" }).click();
    await card.getByText("No API tokens yet.").waitFor();
    const refused = await api.request(`/api/v1/organizations/${orgId}/projects`, { headers: { authorization: `Bearer ${secret}` } });
    expect(refused.status).toBe(401);
    expect(problems).toEqual([]);
  }, 60_000);
});
