import { createStripeBillingProvider } from "../../src/server/billing/stripe-billing.provider";
import { startStripeStandIn, type StripeStandIn } from "../stand-ins/stripe-stand-in";
import { startTestServer, type TestServer, type TestServerOptions } from "./test-server";

export const STRIPE_TEST_KEY = "sk_test_faultline_stand_in";
export const STRIPE_TEST_WEBHOOK_SECRET = "whsec_faultline_stand_in";
export const PLUS_PRICE = "price_plus_test";

/**
 * The hosted deployment refuses to start without Stripe settings; tests of other hosted-mode
 * behaviour (the chat's plan gate) that never reach Stripe use these, which point at a closed
 * loopback port.
 */
export const HOSTED_ENV_WITHOUT_STRIPE = {
  DEPLOYMENT_MODE: "FAULTLINE_CLOUD",
  STRIPE_SECRET_KEY: STRIPE_TEST_KEY,
  STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
  STRIPE_PLUS_PRICE_ID: PLUS_PRICE,
  STRIPE_API_URL: "http://127.0.0.1:9",
};

export interface BillingTestServer {
  server: TestServer;
  stripe: StripeStandIn;
  close(): Promise<void>;
}

/**
 * The app on the hosted deployment (FAULTLINE_CLOUD) with the real `stripe` client pointed at a
 * local Stripe stand-in, whose webhooks go to the app's webhook endpoint.
 */
export async function startBillingServer(options: Omit<TestServerOptions, "outside"> & { stripe?: StripeStandIn } = {}): Promise<BillingTestServer> {
  const stripe = options.stripe ?? (await startStripeStandIn({ secretKey: STRIPE_TEST_KEY, webhookSecret: STRIPE_TEST_WEBHOOK_SECRET }));
  const stripeEnv = {
    DEPLOYMENT_MODE: "FAULTLINE_CLOUD",
    STRIPE_SECRET_KEY: STRIPE_TEST_KEY,
    STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
    STRIPE_PLUS_PRICE_ID: PLUS_PRICE,
    STRIPE_API_URL: stripe.url,
  };
  const env = { ...stripeEnv, ...options.env };
  const billing = createStripeBillingProvider(env);
  const server = await startTestServer({ ...options, env, outside: { billing } });
  stripe.webhookUrl = `${server.url}/api/v1/billing/webhooks/stripe`;
  return {
    server,
    stripe,
    close: async () => {
      await stripe.settled();
      await server.close();
      if (!options.stripe) await stripe.close();
    },
  };
}
