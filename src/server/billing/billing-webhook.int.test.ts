import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingWebhookEvents, subscriptions } from "../db/schema/index";
import { AppError } from "../errors";
import { requirePlan } from "./organization-plan";
import { PLUS_PRICE, startBillingServer, type BillingTestServer } from "../../../test/helpers/billing-server";
import { createOrganization, signUpVerified } from "../../../test/helpers/test-users";

/**
 * Battery H: the Stripe webhook. Events are built and signed as Stripe does (the library's own
 * test-header helper) by the stand-in, and POSTed to the real endpoint.
 */
describe("the Stripe webhook (battery H)", () => {
  let billing: BillingTestServer;
  let orgId: string;
  let customerId: string;

  const rowsOf = (organizationId: string) => billing.server.database.db.select().from(subscriptions).where(eq(subscriptions.organizationId, organizationId));
  const plusSubscription = (status = "active", quantity = 1) =>
    billing.stripe.createSubscription({ customer: customerId, price: PLUS_PRICE, quantity, metadata: { organizationId: orgId }, status });

  beforeAll(async () => {
    billing = await startBillingServer();
    const { session } = await signUpVerified(billing.server);
    orgId = (await createOrganization(session, "Webhook Org")).id;
    // The customer Checkout would have created for the organization.
    const started = await session.mutation("billing.checkout", { plan: "plus" });
    expect(started.error).toBeUndefined();
    customerId = [...billing.stripe.customers.values()][0].id;
  }, 60_000);
  afterAll(() => billing.close());

  it("refuses a missing, wrong or re-serialised signature with 400 and changes nothing", async () => {
    const event = billing.stripe.event("customer.subscription.created", plusSubscription());
    const missing = await billing.stripe.deliver(event, { signature: null });
    expect(missing.status).toBe(400);
    const wrong = await billing.stripe.deliver(event, { signature: `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` });
    expect(wrong.status).toBe(400);
    // The same event, signed, but its JSON re-serialised on the way (as a JSON parser in front would do).
    const signedPayload = JSON.stringify(event, null, 2);
    const { default: Stripe } = await import("stripe");
    const header = new Stripe("sk_test_x").webhooks.generateTestHeaderString({ payload: signedPayload, secret: "whsec_faultline_stand_in" });
    const reserialised = await billing.stripe.deliver(event, { payload: JSON.stringify(JSON.parse(signedPayload)), signature: header });
    expect(reserialised.status).toBe(400);
    expect(reserialised.body.error.code).toBe("BAD_REQUEST");
    expect(await rowsOf(orgId)).toEqual([]);
    const claimed = await billing.server.database.db.select().from(billingWebhookEvents).where(eq(billingWebhookEvents.id, event.id));
    expect(claimed).toEqual([]);
    // The same bytes with their own signature are accepted: the refusals above were the signature's.
    expect((await billing.stripe.deliver(event, { payload: signedPayload, signature: header })).status).toBe(200);
    await billing.server.database.db.delete(subscriptions).where(eq(subscriptions.organizationId, orgId));
  });

  it("refuses a signature whose timestamp is outside the tolerance", async () => {
    const event = billing.stripe.event("customer.subscription.created", plusSubscription());
    const stale = await billing.stripe.deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(400);
    const future = await billing.stripe.deliver(event, { timestamp: Math.floor(Date.now() / 1000) + 3600 });
    expect(future.status).toBe(400);
    expect(await rowsOf(orgId)).toEqual([]);
  });

  it("applies the same event delivered 10 times concurrently exactly once", async () => {
    const subscription = plusSubscription();
    const event = billing.stripe.event("customer.subscription.created", subscription);
    const answers = await Promise.all(Array.from({ length: 10 }, () => billing.stripe.deliver(event)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const outcomes = answers.map((answer) => answer.body.outcome).sort();
    expect(outcomes).toEqual(["applied", ...Array(9).fill("duplicate")]);
    const rows = await rowsOf(orgId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: subscription.id, plan: "plus", status: "active", seats: 1 });
    const claimed = await billing.server.database.db.select().from(billingWebhookEvents).where(eq(billingWebhookEvents.id, event.id));
    expect(claimed).toHaveLength(1);
    await billing.server.database.db.delete(subscriptions).where(eq(subscriptions.organizationId, orgId));
  });

  it("keeps the newest state when `updated` arrives before `created` and a `deleted` arrives late", async () => {
    const t = Math.floor(Date.now() / 1000);
    const subscription = plusSubscription("incomplete", 2);
    const created = billing.stripe.event("customer.subscription.created", subscription, t - 30);
    const updated = billing.stripe.event("customer.subscription.updated", { ...subscription, status: "active" }, t - 20);
    const deleted = billing.stripe.event("customer.subscription.deleted", { ...subscription, status: "canceled" }, t - 10);
    const renewed = billing.stripe.event("customer.subscription.updated", { ...subscription, status: "past_due" }, t - 15);

    expect((await billing.stripe.deliver(updated)).body.outcome).toBe("applied");
    expect((await billing.stripe.deliver(created)).body.outcome).toBe("ignored");
    expect((await rowsOf(orgId))[0]).toMatchObject({ status: "active", seats: 2 });
    expect((await billing.stripe.deliver(deleted)).body.outcome).toBe("applied");
    // An older update retried after the deletion does not bring the subscription back.
    expect((await billing.stripe.deliver(renewed)).body.outcome).toBe("ignored");
    const [row] = await rowsOf(orgId);
    expect(row.status).toBe("canceled");
    expect(row.providerEventCreated).toBe(t - 10);
    await billing.server.database.db.delete(subscriptions).where(eq(subscriptions.organizationId, orgId));
  });

  it("acknowledges unknown event types and ignores subscriptions of other prices or unknown organizations", async () => {
    const unknown = await billing.stripe.deliver(billing.stripe.event("customer.tax_id.created", { id: "txi_1", object: "tax_id" }));
    expect(unknown).toMatchObject({ status: 200, body: { received: true, outcome: "ignored" } });
    const otherPrice = billing.stripe.createSubscription({ customer: customerId, price: "price_other", quantity: 1, metadata: { organizationId: orgId } });
    expect((await billing.stripe.deliver(billing.stripe.event("customer.subscription.created", otherPrice))).body.outcome).toBe("ignored");
    const stranger = billing.stripe.createSubscription({ customer: customerId, price: PLUS_PRICE, quantity: 1, metadata: { organizationId: "no-such-org" } });
    expect((await billing.stripe.deliver(billing.stripe.event("customer.subscription.created", stranger))).body.outcome).toBe("ignored");
    expect(await rowsOf(orgId)).toEqual([]);
  });

  it("raises the payment-failed flag on invoice.payment_failed and lowers it on a later invoice.paid", async () => {
    const subscription = plusSubscription();
    await billing.stripe.deliver(billing.stripe.event("customer.subscription.created", subscription));
    const invoice = (paid: boolean) => ({
      id: `in_${paid ? "paid" : "failed"}`,
      object: "invoice",
      customer: customerId,
      status: paid ? "paid" : "open",
      parent: { type: "subscription_details", subscription_details: { subscription: subscription.id, metadata: { organizationId: orgId } } },
    });
    const t = Math.floor(Date.now() / 1000);
    await billing.stripe.deliver(billing.stripe.event("invoice.payment_failed", invoice(false), t));
    expect((await rowsOf(orgId))[0].paymentFailedAt).toEqual(new Date(t * 1000));
    await billing.stripe.deliver(billing.stripe.event("invoice.paid", invoice(true), t - 60));
    expect((await rowsOf(orgId))[0].paymentFailedAt, "an older paid invoice does not lower a newer failure").not.toBeNull();
    await billing.stripe.deliver(billing.stripe.event("invoice.paid", invoice(true), t + 1));
    expect((await rowsOf(orgId))[0].paymentFailedAt).toBeNull();
    await billing.server.database.db.delete(subscriptions).where(eq(subscriptions.organizationId, orgId));
  });

  it("gates plus features: requirePlan fails before the plus subscription's webhook and passes after it", async () => {
    const ctx = { env: billing.server.env, db: billing.server.database.db };
    const refused = await requirePlan(ctx, orgId, "plus", "The AI agent").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "FORBIDDEN", details: { reason: "plan_required", plan: "plus" } });
    await billing.stripe.deliver(billing.stripe.event("customer.subscription.created", plusSubscription()));
    await expect(requirePlan(ctx, orgId, "plus", "The AI agent")).resolves.toBeUndefined();
    await billing.server.database.db.delete(subscriptions).where(eq(subscriptions.organizationId, orgId));
  });
});
