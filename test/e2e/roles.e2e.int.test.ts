import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orgPost, ownerWithOrganization, addMember } from "../auth/org-kit";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createTriageProject, issueByType, sendEvent, type TriageProject } from "../helpers/triage-seed";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

/**
 * The screens follow the permission table, not role names (issue 31): a custom role holding only
 * issue:triage gets the issue status control and none of the owner's project, token, WAF or role
 * controls, and no error where it may not read.
 */
describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("custom roles in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: HttpSession;
  let triager: HttpSession;
  let project: TriageProject;
  let issueId: string;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    const { owner: created, org } = await ownerWithOrganization(server, "Roles Org");
    owner = created.session;
    project = await createTriageProject(owner, "shop-api");
    await sendEvent(server, project, { type: "TypeError", value: "cart is undefined", fn: "checkout" });
    issueId = (await issueByType(owner, project.id, "TypeError")).id;

    const role = await orgPost(owner, "create-role", { organizationId: org.id, role: "triager", permission: { issue: ["triage"] } });
    expect(role.status, role.text).toBe(200);
    const person = await addMember(server, owner, org.id, "member", "Tina Triager");
    const updated = await orgPost(owner, "update-member-role", { organizationId: org.id, memberId: person.memberId, role: "triager" });
    expect(updated.status, updated.text).toBe(200);
    triager = person.session;
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function pageAs(session: HttpSession) {
    const opened = await newPage(browser);
    await signInPage(opened.page, session, server.url);
    return opened;
  }
  const visit = (page: Page, to: string) => page.goto(`${server.url}${to}`);

  it("offers a triage-only role the status control and nothing it may not use", async () => {
    const { page, problems } = await pageAs(triager);

    await visit(page, `/dashboard/issues/${issueId}/?projectId=${project.id}`);
    await page.getByTestId("issue-status-select").selectOption("RESOLVED");
    await expect.poll(async () => (await issueByType(owner, project.id, "TypeError")).status).toBe("RESOLVED");

    await visit(page, "/dashboard/projects");
    await page.getByTestId("project-table").waitFor();
    await page.getByText("shop-api").first().waitFor();
    expect(await page.getByTestId("new-project").count()).toBe(0);

    await visit(page, `/dashboard/projects/${project.id}/settings`);
    await page.getByTestId("project-dsn").waitFor();
    await page.getByText("Your role cannot change projects.").waitFor();
    await page.getByText("Your role cannot change alert rules.").waitFor();
    expect(await page.getByTestId("delete-project").count()).toBe(0);
    expect(await page.getByTestId("new-alert-rule").count()).toBe(0);

    await visit(page, "/settings/organization");
    await page.getByTestId("members-table").waitFor();
    // No ac:read: the roles are not even asked for, so no error card — the reason instead.
    await page.getByTestId("roles-not-readable").waitFor();
    await page.getByText("Your role cannot see or manage API tokens.").waitFor();
    expect(await page.getByTestId("create-api-token").count()).toBe(0);
    expect(await page.getByTestId("invite-email").count()).toBe(0);
    expect(await page.getByTestId("member-role").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Retry" }).count()).toBe(0);

    await visit(page, "/dashboard/integrations");
    await page.getByTestId("integration-aws-waf").getByText("Your role cannot connect integrations.").waitFor();
    expect(await page.getByTestId("waf-connect").count()).toBe(0);
    expect(problems).toEqual([]);
  }, 90_000);

  it("offers the owner every one of those controls", async () => {
    const { page, problems } = await pageAs(owner);

    await visit(page, "/dashboard/projects");
    await page.getByTestId("new-project").waitFor();

    await visit(page, `/dashboard/projects/${project.id}/settings`);
    await page.getByTestId("delete-project").waitFor();
    await page.getByTestId("new-alert-rule").waitFor();

    await visit(page, "/settings/organization");
    await page.getByTestId("create-api-token").waitFor();
    await page.getByTestId("invite-email").waitFor();
    await page.getByTestId("custom-role-list").getByText("triager").waitFor();
    // The owner may give every role, the custom one included, but not change their own.
    await page.getByTestId("member-row").filter({ hasText: "Tina Triager" }).getByTestId("member-role").waitFor();
    expect(await page.getByTestId("member-row").filter({ hasText: "(you)" }).getByTestId("member-role").count()).toBe(0);
    expect(await page.getByTestId("invite-role").locator("option").allTextContents()).toEqual(["Member", "Admin", "Owner", "triager"]);

    await visit(page, "/dashboard/integrations");
    await page.getByTestId("waf-connect").waitFor();
    expect(problems).toEqual([]);
  }, 90_000);
});
