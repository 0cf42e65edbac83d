import { Router } from "express";
import { CheckoutInput, ListSubscriptionsInput } from "../../shared/billing.inputs";
import type { AppServices } from "../context";
import { orgRoute } from "../rest/context";
import { bodyOf, queryOf } from "../rest/input";
import * as service from "./billing.service";

/** REST twins of billing.* (spec §7's subscriptions call, checkout, portal, usage); the webhook is billing-webhook.route.ts. */
export function billingRestRoutes(services: AppServices) {
  const routes = Router({ mergeParams: true });
  // The spec's path puts the organization after /billing; orgRoute checks membership of :orgId all the same.
  routes.get(
    "/billing/subscriptions/:orgId",
    orgRoute(services, (ctx, req) => service.listSubscriptions(ctx, ListSubscriptionsInput.parse(queryOf(req)))),
  );
  routes.get(
    "/organizations/:orgId/billing/usage",
    orgRoute(services, (ctx) => service.billingUsage(ctx)),
  );
  routes.post(
    "/organizations/:orgId/billing/checkout",
    orgRoute(services, (ctx, req) => service.startCheckout(ctx, CheckoutInput.parse(bodyOf(req)))),
  );
  routes.post(
    "/organizations/:orgId/billing/portal",
    orgRoute(services, (ctx) => service.openPortal(ctx)),
  );
  return routes;
}
