import Stripe from "stripe";
import type { Env } from "../env";
import { AppError } from "../errors";
import type { BillingEvent, BillingProvider, PaidPlan, ProviderSubscription } from "./billing-provider";

type StripeSettings = Pick<Env, "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_PLUS_PRICE_ID" | "STRIPE_API_URL">;

/** Stripe's default: a signature older than five minutes is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The `stripe` client aimed at STRIPE_API_URL: Stripe's own host, or a loopback stand-in in tests. */
export function stripeClient(settings: Pick<Env, "STRIPE_SECRET_KEY" | "STRIPE_API_URL">): Stripe {
  const url = new URL(settings.STRIPE_API_URL);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return new Stripe(settings.STRIPE_SECRET_KEY ?? "", {
    host: url.hostname,
    port: url.port || (protocol === "http" ? 80 : 443),
    protocol,
    maxNetworkRetries: 1,
    timeout: 15_000,
    telemetry: false,
  });
}

const id = (value: unknown): string | null =>
  typeof value === "string" ? value : value && typeof value === "object" && "id" in value ? String(value.id) : null;
const date = (seconds: unknown) => (typeof seconds === "number" ? new Date(seconds * 1000) : null);

/** A Stripe subscription object as Faultline stores it; the period moved onto the items in API 2025-03-31. */
export function toProviderSubscription(object: Stripe.Subscription): ProviderSubscription {
  const items = object.items?.data ?? [];
  const item = items[0] as (Stripe.SubscriptionItem & { current_period_start?: number; current_period_end?: number }) | undefined;
  const legacy = object as unknown as { current_period_start?: number; current_period_end?: number };
  return {
    id: object.id,
    customerId: id(object.customer) ?? "",
    organizationId: typeof object.metadata?.organizationId === "string" ? object.metadata.organizationId : null,
    priceIds: items.map((entry) => entry.price?.id).filter((value): value is string => typeof value === "string"),
    status: object.status,
    seats: item?.quantity ?? 1,
    itemId: item?.id ?? null,
    currentPeriodStart: date(item?.current_period_start ?? legacy.current_period_start),
    currentPeriodEnd: date(item?.current_period_end ?? legacy.current_period_end),
    cancelAtPeriodEnd: object.cancel_at_period_end === true,
  };
}

/** The invoice's subscription: under `parent.subscription_details` since API 2025-03-31, top-level before. */
function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  const parent = (invoice as { parent?: { subscription_details?: { subscription?: unknown } | null } | null }).parent;
  return id(parent?.subscription_details?.subscription) ?? id((invoice as unknown as { subscription?: unknown }).subscription);
}

function toBillingEvent(event: Stripe.Event): BillingEvent {
  const base = { id: event.id, type: event.type, created: event.created };
  switch (event.type) {
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return {
        ...base,
        kind: "subscription",
        subscription: toProviderSubscription(event.data.object),
        deleted: event.type === "customer.subscription.deleted",
      };
    case "checkout.session.completed": {
      const session = event.data.object;
      return {
        ...base,
        kind: "checkout_completed",
        organizationId: session.client_reference_id ?? session.metadata?.organizationId ?? null,
        customerId: id(session.customer),
        subscriptionId: id(session.subscription),
      };
    }
    case "invoice.paid":
    case "invoice.payment_failed":
      return { ...base, kind: "invoice", paid: event.type === "invoice.paid", subscriptionId: invoiceSubscription(event.data.object) };
    default:
      return { ...base, kind: "ignored" };
  }
}

/** Stripe's failures as the domain's: unreachable → 503 (retry later), anything else it answered → 502. */
function providerError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof Stripe.errors.StripeConnectionError)
    return new AppError("SERVICE_UNAVAILABLE", "The billing service cannot be reached. Try again in a minute.");
  return new AppError("BAD_GATEWAY", "The billing service refused the request. Try again, or contact support if it keeps failing.");
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw providerError(error);
  }
}

export function createStripeBillingProvider(settings: StripeSettings): BillingProvider {
  const stripe = stripeClient(settings);
  const webhookSecret = settings.STRIPE_WEBHOOK_SECRET ?? "";
  const plusPrice = settings.STRIPE_PLUS_PRICE_ID ?? "";
  return {
    priceIdOf: (_plan: PaidPlan) => plusPrice,

    createCustomer: ({ organizationId, name }) =>
      call(async () => {
        // The idempotency key makes two racing first checkouts of one organization create one customer.
        const customer = await stripe.customers.create({ name, metadata: { organizationId } }, { idempotencyKey: `faultline-customer-${organizationId}` });
        return customer.id;
      }),

    checkoutUrl: ({ organizationId, customerId, seats, successUrl, cancelUrl }) =>
      call(async () => {
        const session = await stripe.checkout.sessions.create({
          mode: "subscription",
          customer: customerId,
          client_reference_id: organizationId,
          line_items: [{ price: plusPrice, quantity: seats }],
          success_url: successUrl,
          cancel_url: cancelUrl,
          metadata: { organizationId },
          // Every subscription event then names its organization in metadata.organizationId.
          subscription_data: { metadata: { organizationId } },
        });
        if (!session.url) throw new AppError("BAD_GATEWAY", "The billing service answered without a checkout page.");
        return session.url;
      }),

    portalUrl: ({ customerId, returnUrl }) =>
      call(async () => {
        const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
        return session.url;
      }),

    retrieveSubscription: (subscriptionId) => call(async () => toProviderSubscription(await stripe.subscriptions.retrieve(subscriptionId))),

    updateSeats: ({ subscriptionId, itemId, seats }) =>
      call(async () => {
        await stripe.subscriptions.update(subscriptionId, { items: [{ id: itemId, quantity: seats }], proration_behavior: "create_prorations" });
      }),

    verifyWebhook(rawBody, signatureHeader) {
      if (!signatureHeader) throw new AppError("BAD_REQUEST", "Missing Stripe-Signature header");
      // The library refuses signatures too old only; one dated far ahead is outside the tolerance as well.
      const timestamp = Number(/(?:^|,)t=(\d+)/.exec(signatureHeader)?.[1]);
      if (!Number.isFinite(timestamp) || timestamp - Date.now() / 1000 > WEBHOOK_TOLERANCE_SECONDS) {
        throw new AppError("BAD_REQUEST", "Invalid webhook signature or timestamp");
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch {
        // The library's message says whether the signature or the timestamp failed; neither needs more detail.
        throw new AppError("BAD_REQUEST", "Invalid webhook signature or timestamp");
      }
      return toBillingEvent(event);
    },
  };
}
