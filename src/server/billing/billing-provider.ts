/** The plans the spec references (§9); 'free' needs no provider at all. */
export type PaidPlan = "plus";

/** A provider event reduced to what Faultline stores about an organization's subscription. */
export interface SubscriptionEvent {
  /** The provider's event id; webhooks are idempotent by it (a replay changes nothing). */
  eventId: string;
  organizationId: string;
  plan: PaidPlan;
  status: "active" | "trialing" | "past_due" | "canceled" | "incomplete";
  /** When the provider created the event: webhooks arrive out of order, and an older one must not undo a newer one. */
  occurredAt: Date;
  currentPeriodEnd: Date | null;
}

/**
 * Payments on the hosted deployment (`stripe`, with STRIPE_API_URL so tests reach a loopback
 * stand-in). Absent when self-hosted: the plan check then passes (spec §6).
 *
 * Contract:
 * - `checkoutUrl` / `portalUrl` return a provider page to redirect the browser to; the provider's
 *   customer is created or found by organization id, never by the user's email alone.
 * - `parseWebhook` verifies the signature over the exact raw bytes (mounted before any JSON
 *   parser) and throws AppError BAD_REQUEST when it does not match or is too old. It returns null
 *   for event types Faultline ignores.
 * - Provider errors throw AppError BAD_GATEWAY, an unreachable provider SERVICE_UNAVAILABLE.
 */
export interface BillingProvider {
  checkoutUrl(input: { organizationId: string; plan: PaidPlan; successUrl: string; cancelUrl: string }): Promise<string>;
  portalUrl(input: { organizationId: string; returnUrl: string }): Promise<string>;
  parseWebhook(rawBody: Buffer, signatureHeader: string): SubscriptionEvent | null;
}
