/**
 * A local stand-in for the parts of Stripe's API that billing uses: customers, Checkout sessions
 * (with a checkout page a browser can "pay" on), billing portal sessions, subscriptions and events.
 * The real `stripe` client reaches it through its host/port/protocol settings (STRIPE_API_URL):
 * form-encoded requests, JSON answers shaped like Stripe's objects, Stripe's error shape. Webhooks
 * are signed with the library's own `stripe.webhooks.generateTestHeaderString` and POSTed to the app.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { parseStripeForm } from "./form-body";

type Json = Record<string, any>;

export interface StripeStandInOptions {
  secretKey: string;
  webhookSecret: string;
}

export interface StripeStandIn {
  /** http://127.0.0.1:port — what STRIPE_API_URL is set to. */
  url: string;
  customers: Map<string, Json>;
  checkoutSessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  events: Json[];
  /** Every API request the client made: method, path, parsed form body. */
  requests: { method: string; path: string; body: Json }[];
  /** Where signed webhooks are delivered (the app's /api/v1/billing/webhooks/stripe). */
  webhookUrl: string | null;
  /** Builds an event as Stripe would (id, created, data.object) and records it. */
  event(type: string, object: Json, created?: number): Json;
  /** Signs an event's JSON with the webhook secret (Stripe's test-header helper) and POSTs it to webhookUrl. */
  deliver(event: Json, options?: { payload?: string; signature?: string | null; timestamp?: number }): Promise<{ status: number; body: any }>;
  /** A subscription object, stored, as Checkout would create it. */
  createSubscription(input: { customer: string; price: string; quantity: number; metadata: Json; status?: string }): Json;
  /**
   * Waits for the webhooks Stripe sends on its own after an API call (subscription updated or
   * deleted). A test server must not close while one is in flight: the POST would fail after the
   * test ended, outside any test.
   */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const now = () => Math.floor(Date.now() / 1000);
let sequence = 0;
const newId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++sequence).toString(36).padStart(4, "0")}`;

export async function startStripeStandIn(options: StripeStandInOptions): Promise<StripeStandIn> {
  const signer = new Stripe(options.secretKey);
  const customers = new Map<string, Json>();
  const checkoutSessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const portalSessions = new Map<string, Json>();
  const events: Json[] = [];
  const requests: StripeStandIn["requests"] = [];
  const inFlight = new Set<Promise<unknown>>();
  let base = "";

  /** Stripe's own deliveries: nobody awaits them, and one that fails is retried by Stripe, not thrown. */
  const deliverInBackground = (event: Json) => {
    const delivery = stand.deliver(event).catch(() => undefined);
    inFlight.add(delivery);
    void delivery.finally(() => inFlight.delete(delivery));
  };

  const stand: StripeStandIn = {
    url: "",
    customers,
    checkoutSessions,
    subscriptions,
    events,
    requests,
    webhookUrl: null,
    event(type, object, created = now()) {
      const event = {
        id: newId("evt"),
        object: "event",
        api_version: "2026-10-28.endive",
        created,
        data: { object: structuredClone(object) },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      };
      events.push(event);
      return event;
    },
    async deliver(event, { payload, signature, timestamp } = {}) {
      if (!stand.webhookUrl) throw new Error("webhookUrl is not set");
      const body = payload ?? JSON.stringify(event, null, 2);
      const header =
        signature === undefined ? signer.webhooks.generateTestHeaderString({ payload: body, secret: options.webhookSecret, timestamp }) : signature;
      const response = await fetch(stand.webhookUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          ...(header === null ? {} : { "stripe-signature": header }),
        },
        body,
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    createSubscription({ customer, price, quantity, metadata, status = "active" }) {
      const id = newId("sub");
      const start = now();
      const subscription = {
        id,
        object: "subscription",
        customer,
        status,
        metadata,
        cancel_at_period_end: false,
        canceled_at: null,
        created: start,
        livemode: false,
        items: {
          object: "list",
          data: [
            {
              id: newId("si"),
              object: "subscription_item",
              price: { id: price, object: "price", recurring: { interval: "month" } },
              quantity,
              subscription: id,
              current_period_start: start,
              current_period_end: start + 30 * 24 * 3600,
            },
          ],
          has_more: false,
        },
      };
      subscriptions.set(id, subscription);
      return subscription;
    },
    settled: async () => {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    close: async () => {
      await stand.settled();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const send = (res: ServerResponse, status: number, body: Json) => {
    res.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
    res.end(JSON.stringify(body));
  };
  const stripeError = (res: ServerResponse, status: number, message: string, type = "invalid_request_error") => send(res, status, { error: { type, message } });
  const html = (res: ServerResponse, body: string) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html><head><title>Stripe stand-in</title></head><body>${body}</body></html>`);
  };

  /** What "Pay" does on Stripe's hosted page: a subscription, the session completed, and their events delivered. */
  async function pay(session: Json) {
    const item = session.line_items[0];
    const subscription = stand.createSubscription({
      customer: session.customer,
      price: item.price,
      quantity: Number(item.quantity ?? 1),
      metadata: session.subscription_data?.metadata ?? {},
    });
    Object.assign(session, { status: "complete", payment_status: "paid", subscription: subscription.id });
    if (!stand.webhookUrl) return;
    await stand.deliver(stand.event("customer.subscription.created", subscription));
    await stand.deliver(stand.event("checkout.session.completed", session));
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string, body: Json) {
    if (req.headers.authorization !== `Bearer ${options.secretKey}`) return stripeError(res, 401, "Invalid API Key provided", "invalid_request_error");
    requests.push({ method: req.method ?? "", path, body });
    const [, , resource, id, sub] = path.split("/");
    if (req.method === "POST" && resource === "customers" && !id) {
      const customer = {
        id: newId("cus"),
        object: "customer",
        name: body.name ?? null,
        email: body.email ?? null,
        metadata: body.metadata ?? {},
        created: now(),
      };
      customers.set(customer.id, customer);
      return send(res, 200, customer);
    }
    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      if (body.mode !== "subscription") return stripeError(res, 400, "mode must be subscription in this stand-in");
      if (!customers.has(body.customer)) return stripeError(res, 400, `No such customer: '${body.customer}'`);
      const sessionId = newId("cs_test");
      const session = {
        id: sessionId,
        object: "checkout.session",
        mode: body.mode,
        customer: body.customer,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        subscription_data: body.subscription_data ?? {},
        line_items: body.line_items ?? [],
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        status: "open",
        payment_status: "unpaid",
        subscription: null,
        url: `${base}/c/pay/${sessionId}`,
        created: now(),
      };
      checkoutSessions.set(sessionId, session);
      return send(res, 200, { ...session, subscription_data: undefined, line_items: undefined });
    }
    if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
      if (!customers.has(body.customer)) return stripeError(res, 400, `No such customer: '${body.customer}'`);
      const portal = { id: newId("bps"), object: "billing_portal.session", customer: body.customer, return_url: body.return_url ?? null, created: now() };
      const session = { ...portal, url: `${base}/p/session/${portal.id}` };
      portalSessions.set(portal.id, session);
      return send(res, 200, session);
    }
    if (resource === "subscriptions" && id && !sub) {
      const subscription = subscriptions.get(id);
      if (!subscription) return stripeError(res, 404, `No such subscription: '${id}'`);
      if (req.method === "GET") return send(res, 200, subscription);
      if (req.method === "POST") {
        for (const item of (body.items ?? []) as Json[]) {
          const target = subscription.items.data.find((entry: Json) => entry.id === item.id);
          if (!target) return stripeError(res, 400, `No such subscription item: '${item.id}'`);
          if (item.quantity !== undefined) target.quantity = Number(item.quantity);
        }
        if (body.cancel_at_period_end !== undefined) subscription.cancel_at_period_end = body.cancel_at_period_end === "true";
        if (stand.webhookUrl) deliverInBackground(stand.event("customer.subscription.updated", subscription));
        return send(res, 200, subscription);
      }
      if (req.method === "DELETE") {
        Object.assign(subscription, { status: "canceled", canceled_at: now() });
        if (stand.webhookUrl) deliverInBackground(stand.event("customer.subscription.deleted", subscription));
        return send(res, 200, subscription);
      }
    }
    if (req.method === "GET" && path === "/v1/events")
      return send(res, 200, { object: "list", data: [...events].reverse(), has_more: false, url: "/v1/events" });
    if (req.method === "GET" && resource === "events" && id) {
      const event = events.find((entry) => entry.id === id);
      return event ? send(res, 200, event) : stripeError(res, 404, `No such event: '${id}'`);
    }
    return stripeError(res, 404, `Unrecognized request URL (${req.method}: ${path}).`);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", base);
      const text = Buffer.concat(chunks).toString("utf8");
      void (async () => {
        try {
          if (url.pathname.startsWith("/v1/")) return await api(req, res, url.pathname, parseStripeForm(text));
          const pay_ = url.pathname.match(/^\/c\/pay\/([\w-]+)$/);
          if (pay_) {
            const session = checkoutSessions.get(pay_[1]);
            if (!session) return html(res, "<h1>Session not found</h1>");
            if (req.method === "POST") {
              await pay(session);
              res.writeHead(303, { location: String(session.success_url).replace("{CHECKOUT_SESSION_ID}", session.id) });
              return res.end();
            }
            const item = session.line_items[0] ?? {};
            return html(
              res,
              `<h1>Stand-in Checkout</h1><p data-testid="checkout-quantity">Seats: ${Number(item.quantity ?? 1)}</p>` +
                `<form method="post"><button type="submit">Subscribe</button></form><a href="${session.cancel_url}">Back</a>`,
            );
          }
          const portal = url.pathname.match(/^\/p\/session\/([\w-]+)$/);
          if (portal) {
            const session = portalSessions.get(portal[1]);
            return html(
              res,
              session ? `<h1>Stand-in customer portal</h1><a href="${session.return_url}">Return to Faultline</a>` : "<h1>Session not found</h1>",
            );
          }
          html(res, "<h1>Not found</h1>");
        } catch (error) {
          stripeError(res, 500, (error as Error).message, "api_error");
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stand.url = base;
  return stand;
}
