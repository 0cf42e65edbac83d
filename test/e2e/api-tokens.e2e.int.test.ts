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
  let orgSlug: string;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    ({ session } = await signUpVerified(server, { name: "Tara Token" }));
    ({ id: orgId, slug: orgSlug } = await createOrganization(session, "Token Org"));
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
    // The dialog's first call names the organization by its slug and runs as shown.
    const curl = (await page.getByTestId("api-token-curl").textContent())!.trim();
    expect(curl).toBe(`curl -H "Authorization: Bearer ${secret}" ${server.url}/api/v1/organizations/${orgSlug}/projects`);
    const tried = await new HttpSession(server.url, null).request(curl.split(" ").at(-1)!, { headers: { authorization: `Bearer ${secret}` } });
    expect(tried.status, tried.text).toBe(200);
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

  it("shows the organization's and a project's ids for the REST API, each with a copy button", async () => {
    const { data: project } = await session.mutation("project.create", { name: "Ids shown", platform: "NODE_JS" });
    const { page, problems } = await newPage(browser);
    const { hostname } = new URL(server.url);
    await page.context().addCookies([...session.cookies].map(([name, value]) => ({ name, value, domain: hostname, path: "/" })));
    await page.goto(`${server.url}/settings/organization`);
    await page.getByTestId("organization-ids").waitFor();
    expect(await page.getByTestId("organization-id").textContent()).toBe(orgId);
    expect(await page.getByTestId("organization-slug").textContent()).toBe(orgSlug);
    await page.getByRole("button", { name: "Copy organization id" }).waitFor();

    await page.goto(`${server.url}/dashboard/projects/${project.id}/settings`);
    await page.getByTestId("project-ids").waitFor();
    expect(await page.getByTestId("project-id").textContent()).toBe(project.id);
    expect(await page.getByTestId("project-number").textContent()).toBe(String(project.number));
    expect(await page.getByTestId("project-slug").textContent()).toBe("ids-shown");
    await page.getByRole("button", { name: "Copy slug" }).waitFor();
    expect(problems).toEqual([]);
  }, 60_000);
});
