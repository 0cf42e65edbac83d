import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage } from "../helpers/browser";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { signUpVerified } from "../helpers/test-users";
import { AUTH } from "../auth/auth-kit";
import { addMember, ownerWithOrganization } from "../auth/org-kit";
import { atProvider, startGoogleFlow, startOidcStandIn, type OidcStandIn } from "../auth/oidc-stand-in";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

/**
 * Issue 14 in real Chromium against the built client: Settings → Account → Unlink (item 5), the
 * /device page (item 10), organization roles and the members card as an admin sees it (items 10
 * and 20). People are set up over HTTP; the browser gets their session cookie.
 */
describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("accounts screens in a real browser (issue 14)", () => {
  let oidc: OidcStandIn;
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    oidc = await startOidcStandIn();
    server = await startTestServer({ serveClient: true, env: oidc.env });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await oidc?.stop();
  });

  /** A Chromium profile signed in as the HTTP session's user. */
  async function pageAs(session: HttpSession): Promise<{ page: Page; problems: string[] }> {
    const opened = await newPage(browser);
    await opened.page.context().addCookies([...session.cookies].map(([name, value]) => ({ name, value, url: server.url })));
    return opened;
  }

  it("item 5: Unlink works on a linked provider and is disabled on the last sign-in method", async () => {
    const person = await signUpVerified(server, { name: "Una Link" });
    oidc.next({ email: person.email, email_verified: true });
    const { authorize } = await startGoogleFlow(person.session, `${AUTH}/link-social`, { callbackURL: "/settings/account" });
    const callback = await atProvider(authorize);
    const linked = await person.session.request(callback.pathname + callback.search);
    expect(new URL(linked.headers.get("location") as string, server.url).pathname).toBe("/settings/account");

    const { page, problems } = await pageAs(person.session);
    await page.goto(`${server.url}/settings/account`);
    const rows = page.locator('[data-testid="linked-accounts"] li');
    await expect.poll(() => rows.count()).toBe(2);
    const googleRow = rows.filter({ hasText: "Google" });
    await expect.poll(() => googleRow.getByTestId("unlink-account").isEnabled()).toBe(true);
    await googleRow.getByTestId("unlink-account").click();
    await page.getByText("Google unlinked").waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    const lastRow = rows.first();
    await expect.poll(() => lastRow.innerText()).toContain("Email and password");
    await expect.poll(() => lastRow.getByTestId("unlink-account").isDisabled()).toBe(true);
    await lastRow.getByTestId("last-method-note").waitFor();
    const accounts = await person.session.request(`${AUTH}/list-accounts`);
    expect(accounts.body.map((row: { providerId: string }) => row.providerId)).toEqual(["credential"]);
    expect(problems).toEqual([]);
  });

  it("issue 37 item 11: changing a verified email says a second link then goes to the new address", async () => {
    const person = await signUpVerified(server, { name: "Ema Move" });
    const newEmail = `moved-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const { page, problems } = await pageAs(person.session);
    await page.goto(`${server.url}/settings/account`);
    await page.getByTestId("new-email").fill(newEmail);
    await page.getByTestId("change-email-submit").click();
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: "confirmation link" });
    await toast.waitFor();
    expect(await toast.innerText()).toContain(
      `We sent a confirmation link to ${person.email.toLowerCase()}. Once you open it, a second link goes to ${newEmail}: your email changes when you open that one.`,
    );
    expect(problems).toEqual([]);
  });

  it("item 10: a signed-in person approves a command-line sign-in on /device", async () => {
    const person = await signUpVerified(server, { name: "Devi Cee" });
    const tool = new HttpSession(server.url, null);
    const code = await tool.request(`${AUTH}/device/code`, { body: { client_id: "faultline-cli" } });
    expect(code.status).toBe(200);

    const { page, problems } = await pageAs(person.session);
    await page.goto(code.body.verification_uri_complete);
    expect(await page.getByTestId("device-user-code").inputValue()).toBe(code.body.user_code);
    await page.getByTestId("device-continue").click();
    await page.getByTestId("device-request").getByText("faultline-cli").waitFor();
    await page.getByTestId("device-approve").click();
    await page.getByText("Device approved").waitFor();

    const token = await tool.request(`${AUTH}/device/token`, {
      body: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: code.body.device_code, client_id: "faultline-cli" },
    });
    expect(token.status, token.text).toBe(200);
    expect(token.body.access_token).toEqual(expect.any(String));

    // A wrong code says so, in the page.
    await page.goto(`${server.url}/device`);
    await page.getByTestId("device-user-code").fill("ZZZZ-ZZZZ");
    await page.getByTestId("device-continue").click();
    await page.getByText("Invalid user code").waitFor();
    expect(problems).toEqual([]);
  });

  it("items 10 and 20: an admin creates a role and assigns it, and is offered nothing on the owner", async () => {
    const { owner, org } = await ownerWithOrganization(server, "Roles Inc");
    const admin = await addMember(server, owner.session, org.id, "admin", "Ada Admin");
    const member = await addMember(server, owner.session, org.id, "member", "Mo Member");

    const { page, problems } = await pageAs(admin.session);
    await page.goto(`${server.url}/settings/organization`);
    const rows = page.getByTestId("member-row");
    await expect.poll(() => rows.count()).toBe(3);
    const ownerRow = rows.filter({ hasText: owner.email });
    const memberRow = rows.filter({ hasText: member.email });
    await memberRow.getByTestId("remove-member").waitFor();
    expect(await ownerRow.getByTestId("remove-member").count()).toBe(0);
    expect(await ownerRow.getByTestId("member-role").count()).toBe(0);
    expect(await ownerRow.getByTestId("member-role-badge").innerText()).toBe("Owner");

    await page.getByTestId("no-custom-roles").waitFor();
    await page.getByTestId("new-role-name").fill("recruiter");
    await page.getByTestId("new-role-invitation-create").click();
    await page.getByTestId("create-role").click();
    await page.getByText("Role recruiter created").waitFor();
    await page.getByTestId("custom-role-row").filter({ hasText: "Invitations: create" }).waitFor();

    await memberRow.getByTestId("member-role").click();
    // The admin may not hand out the owner role; the custom role is offered.
    expect(await page.getByRole("option", { name: "Owner" }).count()).toBe(0);
    await page.getByRole("option", { name: "recruiter" }).click();
    await page.getByText("Mo Member is now recruiter").waitFor();
    const full = await owner.session.request(`${AUTH}/organization/get-full-organization?organizationId=${org.id}`);
    expect(full.body.members.find((row: { userId: string }) => row.userId === member.userId).role).toBe("recruiter");
    expect(problems).toEqual([]);
  });
});
