/**
 * The AWS WAF flow in a real Chromium: connect through the drawer (Test connection shows the
 * stand-in's web ACL), open the WAF screen and choose the block list, then block the client IP of
 * an exception that a real @sentry/node Express handler reported — the address lands in the
 * stand-in's IP set and the exception shows "blocked" — and unblock it again.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AwsStandIn } from "../stand-ins/aws/aws-stand-in";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { createOrganization, signUpVerified } from "../helpers/test-users";
import { seedWafAccount, startWafTestServer, type TestServer } from "../helpers/waf-test-server";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");
const APP_DIR = path.join(import.meta.dirname, "waf-sentry-app");
const CLIENT_IP = "203.0.113.45";
const OTHER_IP = "198.51.100.7";

/** Runs the Express shop under @sentry/node, sends one checkout from CLIENT_IP (behind a proxy), and stops it once the SDK flushed. */
async function failCheckoutFrom(dsn: string, clientIp: string) {
  const child = spawn(process.execPath, ["--import", path.join(APP_DIR, "instrument.mjs"), path.join(APP_DIR, "app.mjs")], {
    env: { PATH: process.env.PATH, SENTRY_DSN: dsn },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (line) => resolve(JSON.parse(String(line)).port));
    child.once("exit", (code) => reject(new Error(`the Sentry app exited with ${code}`)));
  });
  const response = await fetch(`http://127.0.0.1:${port}/checkout`, { headers: { "x-forwarded-for": clientIp } });
  expect(response.status).toBe(500);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("AWS WAF in a real browser", () => {
  let aws: AwsStandIn;
  let server: TestServer;
  let browser: Browser;
  let session: HttpSession;
  let seeded: ReturnType<typeof seedWafAccount>;
  let project: { id: string; dsn: string };

  beforeAll(async () => {
    aws = await new AwsStandIn().start();
    ({ server } = await startWafTestServer(aws, { serveClient: true }));
    seeded = seedWafAccount(aws);
    browser = await launchBrowser();
    ({ session } = await signUpVerified(server, { name: "Wanda Waf" }));
    await createOrganization(session, "Waf Shop");
    project = (await session.mutation("project.create", { name: "shop", platform: "NODE_JS" })).data;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await aws?.close();
  });

  it("connects through the drawer, blocks an exception's client IP from the exception, and unblocks it", async () => {
    await failCheckoutFrom(project.dsn, CLIENT_IP);
    let exception: { id: string; issueId: string } | undefined;
    await expect
      .poll(async () => {
        const issues = (await session.query("issue.list", { projectId: project.id })).data.items as { id: string }[];
        if (issues.length === 0) return undefined;
        exception = (await session.query("exception.list", { projectId: project.id, issueId: issues[0]!.id })).data.items[0];
        return exception?.id;
      })
      .toBeDefined();

    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(`${server.url}/dashboard/integrations`);
    await page.getByTestId("waf-connect").click();
    const drawer = page.getByTestId("waf-connect-drawer");
    // The IAM actions and each field's validation message are in the drawer.
    expect(await drawer.getByTestId("waf-iam-actions").textContent()).toContain("wafv2:UpdateIPSet");
    await drawer.getByTestId("waf-test").click();
    await expect.poll(() => drawer.getByRole("alert").first().innerText()).toContain("An access key id is 20 characters");
    await drawer.locator("#waf-region").selectOption("eu-west-1");
    await drawer.locator("#waf-access-key-id").fill(seeded.account.accessKeyId);
    await drawer.locator("#waf-secret-access-key").fill(seeded.account.secretAccessKey);
    await drawer.getByTestId("waf-test").click();
    await expect.poll(() => drawer.getByTestId("waf-test-result").innerText()).toContain("shop-acl");
    await drawer.getByTestId("waf-connect-submit").click();
    await expect.poll(() => page.getByTestId("integration-aws-waf").getAttribute("data-status")).toBe("connected");

    await page.getByTestId("waf-open").click();
    await page.getByTestId("waf-screen").waitFor();
    expect(await page.getByTestId("waf-web-acls").innerText()).toContain("block-faultline");
    await page.getByTestId("waf-block-list-select").selectOption(seeded.blocked.id);
    await page.getByTestId("waf-block-list-save").click();
    await expect.poll(() => page.getByTestId("waf-block-list-name").innerText()).toBe("faultline-blocked");

    await page.goto(`${server.url}/dashboard/issues/${exception!.issueId}/exceptions/${exception!.id}?projectId=${project.id}`);
    const panel = page.getByTestId("block-ip-panel");
    await panel.getByTestId("ip-not-blocked").waitFor();
    expect(await panel.getAttribute("data-ip")).toBe(CLIENT_IP);
    await panel.getByTestId("block-ip").click();
    expect(await page.getByTestId("block-ip-target").innerText()).toContain("faultline-blocked");
    await page.getByTestId("block-ip-dialog").getByTestId("confirm-submit").click();
    await panel.getByTestId("ip-blocked").waitFor();
    expect(aws.ipSet(seeded.blocked.id)?.addresses).toContain(`${CLIENT_IP}/32`);
    // A fresh load still says blocked: the state comes from AWS, not from the page.
    await page.reload();
    await page.getByTestId("block-ip-panel").getByTestId("ip-blocked").waitFor();

    await page.getByTestId("block-ip-panel").getByTestId("unblock-ip").click();
    await page.getByTestId("unblock-ip-dialog").getByTestId("confirm-submit").click();
    await page.getByTestId("block-ip-panel").getByTestId("ip-not-blocked").waitFor();
    expect(aws.ipSet(seeded.blocked.id)?.addresses).not.toContain(`${CLIENT_IP}/32`);

    // The issue's activity and the WAF screen's history both record it.
    await page.goto(`${server.url}/dashboard/issues/${exception!.issueId}/?projectId=${project.id}`);
    await expect.poll(() => page.getByTestId("issue-activity").innerText()).toContain(`unblocked ${CLIENT_IP}/32 in AWS WAF`);
    // The issue detail offers it in its actions menu: one client address goes straight to the confirmation.
    await page.getByTestId("issue-actions").click();
    expect(await page.getByTestId("block-ip").getAttribute("data-ips")).toBe(CLIENT_IP);
    await page.getByTestId("block-ip").click();
    expect(await page.getByTestId("block-ip-dialog").getByRole("heading").innerText()).toBe(`Block ${CLIENT_IP}?`);
    expect(await page.getByTestId("block-ip-choice-dialog").count()).toBe(0);
    await page.getByTestId("block-ip-dialog").getByRole("button", { name: "Cancel" }).click();
    await page.getByTestId("block-ip-dialog").waitFor({ state: "detached" });

    // A second client fails the same checkout: the menu then asks which address, with its count.
    await failCheckoutFrom(project.dsn, OTHER_IP);
    await expect.poll(async () => (await session.query("exception.list", { projectId: project.id, issueId: exception!.issueId })).data.items.length).toBe(2);
    await page.reload();
    await page.getByTestId("issue-actions").click();
    await expect.poll(() => page.getByTestId("block-ip").getAttribute("data-ips")).toBe(`${OTHER_IP} ${CLIENT_IP}`);
    await page.getByTestId("block-ip").click();
    const choice = page.getByTestId("block-ip-choice-dialog");
    await choice.waitFor();
    expect(await choice.getByTestId("block-ip-choice").count()).toBe(2);
    const other = choice.locator(`[data-testid="block-ip-choice"][data-ip="${OTHER_IP}"]`);
    expect(await other.getByTestId("block-ip-choice-count").innerText()).toBe("1 of 2 exceptions");
    await other.click();
    expect(await page.getByTestId("block-ip-target").innerText()).toContain(OTHER_IP);
    await page.getByTestId("block-ip-dialog").getByTestId("confirm-submit").click();
    await expect.poll(() => aws.ipSet(seeded.blocked.id)?.addresses).toContain(`${OTHER_IP}/32`);
    expect(aws.ipSet(seeded.blocked.id)?.addresses).not.toContain(`${CLIENT_IP}/32`);
    await expect.poll(() => page.getByTestId("issue-activity").innerText()).toContain(`blocked ${OTHER_IP}/32 in AWS WAF`);
    await page.goto(`${server.url}/dashboard/integrations/aws/waf`);
    await expect.poll(() => page.getByTestId("waf-audit-entry").count()).toBe(3);
    // The rule's sampled requests link the client IP to the exception it caused.
    aws.addSample({
      webAclArn: seeded.webAcl.arn,
      ruleMetricName: "block-faultline",
      clientIp: CLIENT_IP,
      uri: "/checkout",
      method: "GET",
      country: "NL",
      action: "BLOCK",
    });
    const blockList = page.locator('[data-testid="waf-ip-set"][data-name="faultline-blocked"]');
    await blockList.getByTestId("waf-show-samples").click();
    await blockList.getByTestId("waf-samples").waitFor();
    const sampleLink = blockList.getByTestId("waf-samples").locator("a").first();
    expect(await sampleLink.getAttribute("href")).toContain(`/exceptions/${exception!.id}`);
    expect(problems).toEqual([]);
  }, 120_000);
});
