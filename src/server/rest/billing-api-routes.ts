import { CheckoutInput, ListSubscriptionsInput } from "../../shared/billing.inputs";
import { BillingRedirect, BillingUsage, SubscriptionList, WebhookReceipt } from "../../shared/billing.views";
import type { ApiRoute } from "./api-route";

/** Issue 17: plans and billing on Faultline Cloud (the payment webhook is public and reads its raw body). */
export const billingApiRoutes: ApiRoute[] = [
  {
    method: "get",
    path: "/billing/subscriptions/:orgId",
    summary: "The organization's subscriptions (Faultline Cloud only; 404 when self-hosted)",
    tag: "Billing",
    input: ListSubscriptionsInput,
    output: SubscriptionList,
    response: "Its subscriptions, newest first; empty on the free plan",
  },
  {
    method: "get",
    path: "/organizations/:orgId/billing/usage",
    summary: "This month's events per project against the plan's quota",
    tag: "Billing",
    output: BillingUsage,
    response: "Plan, quota, events accepted, rate-limited and over quota per project",
  },
  {
    method: "post",
    path: "/organizations/:orgId/billing/checkout",
    summary: "Start a Stripe Checkout for the plus plan (owners and admins)",
    tag: "Billing",
    input: CheckoutInput,
    output: BillingRedirect,
    response: "The Checkout page to send the browser to",
  },
  {
    method: "post",
    path: "/organizations/:orgId/billing/portal",
    summary: "Open the Stripe customer portal: invoices, payment method, cancel (owners and admins)",
    tag: "Billing",
    output: BillingRedirect,
    response: "The portal page to send the browser to",
  },
  {
    method: "post",
    path: "/billing/webhooks/stripe",
    summary: "Stripe's webhook: a signed event (Stripe-Signature over the raw body); unknown types are acknowledged",
    tag: "Billing",
    output: WebhookReceipt,
    response: "Whether the event was applied, a duplicate, or ignored",
    public: true,
    mountedBeforeJson: true,
  },
];
