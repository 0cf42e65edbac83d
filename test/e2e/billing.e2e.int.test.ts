import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import { startBillingServer, type BillingTestServer } from "../helpers/billing-server";
import type { HttpSession } from "../helpers/http-session";
import { createOrganization, lastMail, signUpVerified } from "../helpers/test-users";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("upgrading to plus in a real browser (hosted deployment)", () => {
  let billing: BillingTestServer;
  let browser: Browser;
  let session: HttpSession;
  let orgId: string;

  beforeAll(async () => {
    billing = await startBillingServer({ serveClient: true });
    browser = await launchBrowser();
    ({ session } = await signUpVerified(billing.server, { name: "Paula Plus" }));
    orgId = (await createOrganization(session, "Upgrade Org")).id;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await billing?.close();
  });

  it("goes from free through the stand-in's Checkout to /plus/success, and the billing page shows plus, its seats and a failed payment", async () => {
    const { page, problems } = await newPage(browser);
    await signInPage(page, session, billing.server.url);

    await page.goto(`${billing.server.url}/plus`);
    await expect.poll(() => page.getByTestId("current-plan").textContent()).toBe("You are on the Free plan");
    expect(await page.getByTestId("plan-plus").innerText()).toContain("AI agent");
    await page.getByTestId("upgrade").click();

    // Stripe's hosted Checkout (the stand-in's page), with one seat per member.
    await page.waitForURL(new RegExp(`^${billing.stripe.url}/c/pay/`));
    expect(await page.getByTestId("checkout-quantity").textContent()).toBe("Seats: 1");
    await page.getByRole("button", { name: "Subscribe" }).click();

    await page.waitForURL(new RegExp(`^${billing.server.url}/plus/success\\?session_id=cs_test_`));
    await page.getByTestId("upgrade-confirmed").waitFor();
    expect(await page.getByTestId("upgrade-confirmed").innerText()).toContain("Open the AI agent");

    await page.goto(`${billing.server.url}/settings/organization/billing`);
    await page.getByTestId("subscription-card").waitFor();
    expect(await page.getByTestId("billing-plan").textContent()).toBe("Plus");
    expect(await page.getByTestId("billing-status").textContent()).toBe("Active");
    expect(await page.getByTestId("billing-seats").textContent()).toBe("1 seat");
    expect(await page.getByTestId("payment-failed-banner").count()).toBe(0);

    // Stripe reports a failed renewal: the banner appears.
    const [subscription] = [...billing.stripe.subscriptions.values()].filter((entry) => entry.metadata.organizationId === orgId);
    const failed = billing.stripe.event("invoice.payment_failed", {
      id: "in_failed_renewal",
      object: "invoice",
      customer: subscription.customer,
      status: "open",
      parent: { type: "subscription_details", subscription_details: { subscription: subscription.id, metadata: { organizationId: orgId } } },
    });
    expect((await billing.stripe.deliver(failed)).status).toBe(200);
    await page.reload();
    await page.getByTestId("payment-failed-banner").waitFor();
    expect(await page.getByTestId("payment-failed-banner").innerText()).toContain("A payment failed");

    // Manage billing opens the customer portal.
    await page.getByTestId("manage-billing").click();
    await page.waitForURL(new RegExp(`^${billing.stripe.url}/p/session/`));
    expect(problems).toEqual([]);
  });
});

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("over quota: the banner owners and admins see on every screen (hosted deployment)", () => {
  const QUOTA = 2;
  let billing: BillingTestServer;
  let browser: Browser;
  let owner: HttpSession;
  let member: HttpSession;
  let project: { number: number; apiKey: string };

  const sendEvent = (n: number) => {
    const eventId = crypto.randomUUID().replaceAll("-", "");
    const event = { event_id: eventId, level: "error", platform: "node", exception: { values: [{ type: "QuotaError", value: `event ${n}` }] } };
    const body = `${JSON.stringify({ event_id: eventId })}\n{"type":"event"}\n${JSON.stringify(event)}\n`;
    return fetch(`${billing.server.url}/api/${project.number}/envelope/?sentry_key=${project.apiKey}`, { method: "POST", body });
  };

  beforeAll(async () => {
    billing = await startBillingServer({ serveClient: true, env: { PLAN_FREE_MONTHLY_EVENTS: String(QUOTA) } });
    browser = await launchBrowser();
    ({ session: owner } = await signUpVerified(billing.server, { name: "Olga Owner" }));
    const orgId = (await createOrganization(owner, "Quota Banner Org")).id;
    project = (await owner.mutation("project.create", { name: "banner app", platform: "NODE_JS" })).data;
    const email = `member-${Date.now()}@example.com`;
    expect((await owner.request("/api/auth/organization/invite-member", { body: { email, role: "member", organizationId: orgId } })).status).toBe(200);
    ({ session: member } = await signUpVerified(billing.server, { email, name: "Mo Member" }));
    const invitationId = new URL(lastMail(billing.server, email, "invitation").actionUrl).searchParams.get("invitationId");
    expect((await member.request("/api/auth/organization/accept-invitation", { body: { invitationId } })).status).toBe(200);
    await member.request("/api/auth/organization/set-active", { body: { organizationId: orgId } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await billing?.close();
  });

  it("says nothing under the quota, then shows the numbers and a link to billing while events are refused — to the owner, not to a member", async () => {
    const { page, problems } = await newPage(browser);
    await signInPage(page, owner, billing.server.url);
    expect((await sendEvent(1)).status).toBe(200);
    await page.goto(`${billing.server.url}/dashboard`);
    await page.locator("main").waitFor();
    await expect.poll(async () => (await owner.query("billing.quota")).data?.used).toBe(1);
    await page.reload();
    await page.locator("main").waitFor();
    expect(await page.getByTestId("quota-banner").count()).toBe(0);

    expect((await sendEvent(2)).status).toBe(200);
    expect((await sendEvent(3)).status).toBe(429);
    await expect.poll(async () => (await owner.query("billing.quota")).data?.refused).toBe(1);

    // Every signed-in screen: the dashboard and a settings page.
    for (const path of ["/dashboard", "/settings/profile"]) {
      await page.goto(`${billing.server.url}${path}`);
      await page.getByTestId("quota-banner").waitFor();
      expect(await page.getByTestId("quota-banner-numbers").textContent()).toBe(`${QUOTA} of ${QUOTA} events used this month`);
      expect(await page.getByTestId("quota-banner").innerText()).toContain("1 refused so far");
    }
    await page.getByTestId("quota-banner-billing").click();
    await page.waitForURL(`${billing.server.url}/settings/organization/billing`);
    await page.getByTestId("usage-meter").waitFor();

    // A member cannot change the plan: no banner for them (and the server does not tell them).
    const memberPage = await newPage(browser);
    await signInPage(memberPage.page, member, billing.server.url);
    await memberPage.page.goto(`${billing.server.url}/settings/profile`);
    await memberPage.page.locator("main").waitFor();
    await memberPage.page.waitForLoadState("networkidle");
    expect(await memberPage.page.getByTestId("quota-banner").count()).toBe(0);
    expect(problems).toEqual([]);
    expect(memberPage.problems).toEqual([]);
  });
});
