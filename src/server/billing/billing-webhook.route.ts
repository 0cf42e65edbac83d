import express, { type NextFunction, type Request, type Response } from "express";
import type { Logger } from "../logger";
import { AppError } from "../errors";
import { stripeWebhookRoute } from "./billing.rest";
import { applyBillingWebhook, type WebhookDeps } from "./subscription-webhook";

/** Its one definition (path, OpenAPI entry) is `stripeWebhookRoute` in billing.rest.ts. */
export const STRIPE_WEBHOOK_PATH = `/api/v1${stripeWebhookRoute.path}`;

/** Stripe's events are a few kilobytes; a larger body is not one of them. */
const WEBHOOK_BODY_LIMIT = "256kb";

/**
 * `POST /api/v1/billing/webhooks/stripe`, mounted before the JSON parser: the signature covers the
 * exact bytes Stripe sent, which a parse and re-serialisation would change. It needs no session
 * and no Origin (Stripe sends neither); the signature is its authentication. Unknown event types
 * are acknowledged (200) so Stripe stops retrying them.
 */
export function billingWebhookRoute(deps: WebhookDeps | null, logger: Logger) {
  const router = express.Router();
  router.post(STRIPE_WEBHOOK_PATH, express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }), async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (!deps) throw new AppError("NOT_FOUND", "Billing is only available on Faultline Cloud: this installation is self-hosted.");
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const outcome = await applyBillingWebhook(deps, body, req.header("stripe-signature"));
      res.json({ received: true, outcome });
    } catch (error) {
      if (error instanceof AppError && error.code === "BAD_REQUEST") logger.warn("billing webhook refused", { requestId: req.id, reason: error.message });
      next(error);
    }
  });
  return router;
}
