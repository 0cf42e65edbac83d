import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import { startBillingServer, type BillingTestServer } from "../helpers/billing-server";
import type { HttpSession } from "../helpers/http-session";
import { createOrganization, signUpVerified } from "../helpers/test-users";

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
