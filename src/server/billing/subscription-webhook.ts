import { and, eq, isNull, lt, lte, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { billingCustomers, billingWebhookEvents, organization, subscriptions } from "../db/schema/index";
import type { Logger } from "../logger";
import type { BillingEvent, BillingProvider, ProviderSubscription } from "./billing-provider";

export interface WebhookDeps {
  db: Db;
  provider: BillingProvider;
  logger: Logger;
  /** Told after an organization's subscription changed, so cached plans (the ingest quota) refresh at once. */
  planChanged?: (organizationId: string) => void;
}

export type WebhookOutcome = "applied" | "duplicate" | "ignored";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Applies one webhook delivery. The signature is checked first (a bad one changes nothing); then,
 * in one transaction, the event id is claimed in billing_webhook_events — a redelivery, or ten
 * concurrent ones, find it taken and change nothing — and the state is written. Should writing
 * fail, the claim rolls back with it and the provider's retry applies the event later.
 */
export async function applyBillingWebhook(deps: WebhookDeps, rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
  const event = deps.provider.verifyWebhook(rawBody, signature);
  if (event.kind === "ignored") {
    deps.logger.info("billing webhook ignored", { eventId: event.id, type: event.type });
    return "ignored";
  }
  // Checkout names its subscription only by id: read it now, outside the transaction (no HTTP call holds a lock).
  const subscription =
    event.kind === "subscription"
      ? event.subscription
      : event.kind === "checkout_completed" && event.subscriptionId
        ? await deps.provider.retrieveSubscription(event.subscriptionId)
        : null;

  const changedOrg = await deps.db.transaction(async (tx) => {
    const claimed = await tx
      .insert(billingWebhookEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: billingWebhookEvents.id });
    if (claimed.length === 0) return undefined;
    if (event.kind === "invoice") return applyInvoice(tx, event);
    if (event.kind === "checkout_completed" && event.organizationId && event.customerId) await rememberCustomer(tx, event.organizationId, event.customerId);
    return subscription ? applySubscription(tx, deps, event, subscription) : null;
  });
  if (changedOrg === undefined) return "duplicate";
  if (changedOrg === null) return "ignored";
  await deps.db.update(billingWebhookEvents).set({ organizationId: changedOrg }).where(eq(billingWebhookEvents.id, event.id));
  deps.planChanged?.(changedOrg);
  return "applied";
}

async function rememberCustomer(tx: Tx, organizationId: string, customerId: string) {
  const [org] = await tx.select({ id: organization.id }).from(organization).where(eq(organization.id, organizationId)).limit(1);
  if (org) await tx.insert(billingCustomers).values({ organizationId, customerId }).onConflictDoNothing();
}

/**
 * Writes the subscription as this event saw it — unless the stored row was written from a newer
 * event: deliveries arrive out of order (an `updated` before its `created`, a retried old event
 * after a `deleted`), and the newest event's state must be the one that stays.
 */
async function applySubscription(tx: Tx, deps: WebhookDeps, event: BillingEvent, subscription: ProviderSubscription): Promise<string | null> {
  const organizationId = subscription.organizationId ?? (event.kind === "checkout_completed" ? event.organizationId : null);
  const plusPrice = deps.provider.priceIdOf("plus");
  if (!organizationId || !subscription.priceIds.includes(plusPrice)) {
    deps.logger.warn("billing webhook for a subscription Faultline did not create; ignored", { eventId: event.id, subscriptionId: subscription.id });
    return null;
  }
  const [org] = await tx.select({ id: organization.id }).from(organization).where(eq(organization.id, organizationId)).limit(1);
  const [customer] = await tx
    .select({ customerId: billingCustomers.customerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.organizationId, organizationId));
  // Metadata names the organization; the customer must be that organization's too (a subscription moved between customers would otherwise grant another tenant).
  if (!org || (customer && customer.customerId !== subscription.customerId)) {
    deps.logger.warn("billing webhook names an unknown organization or another customer; ignored", { eventId: event.id, subscriptionId: subscription.id });
    return null;
  }
  const status = event.kind === "subscription" && event.deleted ? "canceled" : subscription.status;
  const values = {
    plan: "plus",
    status,
    seats: subscription.seats,
    currentPeriodStart: subscription.currentPeriodStart,
    currentPeriodEnd: subscription.currentPeriodEnd,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    providerEventCreated: event.created,
    updatedAt: new Date(),
  };
  const written = await tx
    .insert(subscriptions)
    .values({ id: subscription.id, organizationId, ...values })
    .onConflictDoUpdate({
      target: subscriptions.id,
      set: values,
      // Same second: the later delivery wins (Stripe's `created` has second precision).
      setWhere: and(eq(subscriptions.organizationId, organizationId), lte(subscriptions.providerEventCreated, event.created)),
    })
    .returning({ id: subscriptions.id });
  return written.length > 0 ? organizationId : null;
}

/** A failed payment raises the billing page's banner; a later paid invoice lowers it. Older deliveries change neither. */
async function applyInvoice(tx: Tx, event: Extract<BillingEvent, { kind: "invoice" }>): Promise<string | null> {
  if (!event.subscriptionId) return null;
  const at = new Date(event.created * 1000);
  const [row] = await tx
    .update(subscriptions)
    .set(event.paid ? { paymentFailedAt: null, updatedAt: new Date() } : { paymentFailedAt: at, updatedAt: new Date() })
    .where(
      and(
        eq(subscriptions.id, event.subscriptionId),
        event.paid
          ? or(isNull(subscriptions.paymentFailedAt), lte(subscriptions.paymentFailedAt, at))
          : or(isNull(subscriptions.paymentFailedAt), lt(subscriptions.paymentFailedAt, at)),
      ),
    )
    .returning({ organizationId: subscriptions.organizationId });
  return row?.organizationId ?? null;
}
