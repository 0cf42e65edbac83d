/** A paid plan: 'free' needs no provider at all (spec §9). */
export type PaidPlan = "plus";

/** A provider subscription reduced to what Faultline stores about it. */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** `metadata.organizationId`, set through Checkout's `subscription_data.metadata`; null when someone else created it. */
  organizationId: string | null;
  /** The prices of its items: the plan is the one whose price is configured (STRIPE_PLUS_PRICE_ID). */
  priceIds: string[];
  status: string;
  /** The quantity of the plan's item: one per member. */
  seats: number;
  /** The item holding the seats, for quantity updates. */
  itemId: string | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

interface EventBase {
  /** The provider's event id; webhooks are idempotent by it (a replay changes nothing). */
  id: string;
  type: string;
  /** When the provider created the event (seconds): webhooks arrive out of order, and an older one must not undo a newer one. */
  created: number;
}

/** A verified webhook event, reduced to the kinds Faultline acts on. */
export type BillingEvent =
  | (EventBase & { kind: "subscription"; subscription: ProviderSubscription; deleted: boolean })
  | (EventBase & { kind: "checkout_completed"; organizationId: string | null; customerId: string | null; subscriptionId: string | null })
  | (EventBase & { kind: "invoice"; paid: boolean; subscriptionId: string | null })
  | (EventBase & { kind: "ignored" });

/**
 * Payments on the hosted deployment (`stripe`, with STRIPE_API_URL so tests reach a loopback
 * stand-in). Absent when self-hosted: there is no billing then, and the plan check passes (spec §6).
 *
 * Contract:
 * - The provider's customer is one per organization (billing_customers), created with the
 *   organization id in its metadata, never found by a user's email.
 * - `verifyWebhook` checks the signature over the exact raw bytes (mounted before any JSON parser)
 *   and the timestamp tolerance, and throws AppError BAD_REQUEST otherwise.
 * - Provider errors throw AppError BAD_GATEWAY, an unreachable provider SERVICE_UNAVAILABLE.
 */
export interface BillingProvider {
  createCustomer(input: { organizationId: string; name: string }): Promise<string>;
  checkoutUrl(input: { organizationId: string; customerId: string; plan: PaidPlan; seats: number; successUrl: string; cancelUrl: string }): Promise<string>;
  portalUrl(input: { customerId: string; returnUrl: string }): Promise<string>;
  retrieveSubscription(id: string): Promise<ProviderSubscription>;
  /** Sets the seat count; the provider prorates as it decides. */
  updateSeats(input: { subscriptionId: string; itemId: string; seats: number }): Promise<void>;
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): BillingEvent;
  /** The configured price of a paid plan. */
  priceIdOf(plan: PaidPlan): string;
}
