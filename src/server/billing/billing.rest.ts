import { CheckoutInput, ListSubscriptionsInput } from "../../shared/billing.inputs";
import { BillingRedirect, BillingUsage, SubscriptionList, WebhookReceipt } from "../../shared/billing.views";
import { bodyOf, queryOf } from "../rest/input";
import type { RestRoute } from "../rest/rest-route";
import * as service from "./billing.service";

const tag = "Billing";

/** Stripe's webhook: documented with the others, mounted by app.ts ahead of the JSON parser (billing-webhook.route.ts). */
export const stripeWebhookRoute: RestRoute = {
  method: "post",
  path: "/billing/webhooks/stripe",
  summary: "Stripe's webhook: a signed event (Stripe-Signature over the raw body); unknown types are acknowledged",
  tag,
  output: WebhookReceipt,
  response: "Whether the event was applied, a duplicate, or ignored",
  access: "public",
  mountedBeforeJson: true,
};

/** REST twins of billing.* (spec §7's subscriptions call, checkout, portal, usage) on Faultline Cloud; the payment webhook is public and reads its raw body. */
export const billingRestRoutes: RestRoute[] = [
  {
    method: "get",
    // The spec's path puts the organization after /billing; membership of :orgId is checked all the same.
    path: "/billing/subscriptions/:orgId",
    summary: "The organization's subscriptions (Faultline Cloud only; 404 when self-hosted)",
    tag,
    input: ListSubscriptionsInput,
    output: SubscriptionList,
    response: "Its subscriptions, newest first; empty on the free plan",
    access: "organization",
    handler: (ctx, req) => service.listSubscriptions(ctx, ListSubscriptionsInput.parse(queryOf(req))),
  },
  {
    method: "get",
    path: "/organizations/:orgId/billing/usage",
    summary: "This month's events per project against the plan's quota",
    tag,
    output: BillingUsage,
    response: "Plan, quota, events accepted, rate-limited and over quota per project",
    access: "organization",
    handler: (ctx) => service.billingUsage(ctx),
  },
  {
    method: "post",
    path: "/organizations/:orgId/billing/checkout",
    summary: "Start a Stripe Checkout for the plus plan (owners and admins)",
    tag,
    input: CheckoutInput,
    output: BillingRedirect,
    response: "The Checkout page to send the browser to",
    access: "organization",
    permission: "billing:manage",
    handler: (ctx, req) => service.startCheckout(ctx, CheckoutInput.parse(bodyOf(req))),
  },
  {
    method: "post",
    path: "/organizations/:orgId/billing/portal",
    summary: "Open the Stripe customer portal: invoices, payment method, cancel (owners and admins)",
    tag,
    output: BillingRedirect,
    response: "The portal page to send the browser to",
    access: "organization",
    permission: "billing:manage",
    handler: (ctx) => service.openPortal(ctx),
  },
  stripeWebhookRoute,
];
