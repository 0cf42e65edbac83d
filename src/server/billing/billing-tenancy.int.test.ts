import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { subscriptions } from "../db/schema/index";
import { PLUS_PRICE, startBillingServer, type BillingTestServer } from "../../../test/helpers/billing-server";
import type { HttpSession } from "../../../test/helpers/http-session";
import { createOrganization, lastMail, signUpVerified } from "../../../test/helpers/test-users";

/**
 * Billing on the hosted deployment across tenants and roles: the subscription calls answer only
 * the organization's own members, only owners and admins start Checkout or open the portal, and
 * the Checkout session carries what every later webhook needs to name its organization.
 */
describe("billing tenancy and roles (hosted deployment)", () => {
  let billing: BillingTestServer;
  let ownerA: HttpSession;
  let memberA: HttpSession;
  let ownerB: HttpSession;
  let orgA: string;
  let orgB: string;

  async function join(owner: HttpSession, organizationId: string, role: "member" | "admin") {
    const email = `${role}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;
    const invite = await owner.request("/api/auth/organization/invite-member", { body: { email, role, organizationId } });
    expect(invite.status, invite.text).toBe(200);
    const joined = await signUpVerified(billing.server, { email, name: `${role} user` });
    const invitationId = new URL(lastMail(billing.server, email, "invitation").actionUrl).searchParams.get("invitationId");
    const accepted = await joined.session.request("/api/auth/organization/accept-invitation", { body: { invitationId } });
    expect(accepted.status, accepted.text).toBe(200);
    await joined.session.request("/api/auth/organization/set-active", { body: { organizationId } });
    return joined;
  }

  async function subscribe(session: HttpSession, organizationId: string) {
    const started = await session.request(`/api/v1/organizations/${organizationId}/billing/checkout`, { body: { plan: "plus" } });
    expect(started.status, started.text).toBe(200);
    const sessionId = new URL(started.body.url).pathname.split("/").at(-1)!;
    // "Pay" on the stand-in's checkout page: Stripe creates the subscription and sends its webhooks.
    const paid = await fetch(started.body.url, { method: "POST", redirect: "manual" });
    expect(paid.status).toBe(303);
    return billing.stripe.checkoutSessions.get(sessionId)!;
  }

  beforeAll(async () => {
    billing = await startBillingServer();
    const a = await signUpVerified(billing.server, { name: "Owner A" });
    ownerA = a.session;
    orgA = (await createOrganization(ownerA, "Tenant A")).id;
    memberA = (await join(ownerA, orgA, "member")).session;
    const b = await signUpVerified(billing.server, { name: "Owner B" });
    ownerB = b.session;
    orgB = (await createOrganization(ownerB, "Tenant B")).id;
  }, 120_000);
  afterAll(() => billing.close());

  it("starts Checkout in subscription mode with one seat per member and the organization named for every later event", async () => {
    const session = await subscribe(ownerA, orgA);
    expect(session).toMatchObject({
      mode: "subscription",
      client_reference_id: orgA,
      metadata: { organizationId: orgA },
      subscription_data: { metadata: { organizationId: orgA } },
      line_items: [{ price: PLUS_PRICE, quantity: "2" }],
    });
    expect(session.success_url).toBe(`${billing.server.url}/plus/success?session_id={CHECKOUT_SESSION_ID}`);
    const customer = billing.stripe.customers.get(session.customer)!;
    expect(customer.metadata).toEqual({ organizationId: orgA });
    const list = await ownerA.request(`/api/v1/billing/subscriptions/${orgA}?active=true`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        id: session.subscription,
        plan: "plus",
        status: "active",
        seats: 2,
        currentPeriodStart: expect.any(String),
        currentPeriodEnd: expect.any(String),
        cancelAtPeriodEnd: false,
        paymentFailedAt: null,
      },
    ]);
    // A second Checkout for an organization already on plus is refused.
    const again = await ownerA.request(`/api/v1/organizations/${orgA}/billing/checkout`, { body: { plan: "plus" } });
    expect(again.status).toBe(409);
  });

  it("lets members read the plan but not start Checkout or open the portal", async () => {
    const list = await memberA.request(`/api/v1/billing/subscriptions/${orgA}?active=true`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    for (const path of ["checkout", "portal"]) {
      const refused = await memberA.request(`/api/v1/organizations/${orgA}/billing/${path}`, { body: { plan: "plus" } });
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.message).toBe("Your role cannot manage billing");
    }
    const trpc = await memberA.mutation("billing.checkout", { plan: "plus" });
    expect(trpc.error?.code).toBe("FORBIDDEN");
    // The over-quota banner's state is for those who can act on it.
    expect((await memberA.query("billing.quota")).error?.code).toBe("FORBIDDEN");
    expect((await ownerA.query("billing.quota")).data).toMatchObject({ refusing: false, used: 0 });
    const portal = await ownerA.request(`/api/v1/organizations/${orgA}/billing/portal`, { method: "POST", body: {} });
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(new RegExp(`^${billing.stripe.url}/p/session/`));
  });

  it("does not show B's subscription to A, nor A's to B", async () => {
    await subscribe(ownerB, orgB);
    for (const session of [ownerA, memberA]) {
      const foreign = await session.request(`/api/v1/billing/subscriptions/${orgB}?active=true`);
      expect(foreign.status).toBe(404);
      expect(foreign.text).not.toContain("sub_");
      for (const path of ["usage"]) expect((await session.request(`/api/v1/organizations/${orgB}/billing/${path}`)).status).toBe(404);
      for (const path of ["checkout", "portal"])
        expect((await session.request(`/api/v1/organizations/${orgB}/billing/${path}`, { body: { plan: "plus" } })).status).toBe(404);
    }
    const bOwn = await ownerB.query("billing.subscriptions", { active: true });
    const aOwn = await ownerA.query("billing.subscriptions", { active: true });
    expect(bOwn.data).toHaveLength(1);
    expect(aOwn.data).toHaveLength(1);
    expect(aOwn.data[0].id).not.toBe(bOwn.data[0].id);
  });

  it("moves the seats with membership: a new member updates the quantity and the webhook stores it", async () => {
    const [before] = await billing.server.database.db.select().from(subscriptions).where(eq(subscriptions.organizationId, orgA));
    expect(before.seats).toBe(2);
    await join(ownerA, orgA, "admin");
    await vi.waitFor(
      async () => {
        expect(billing.stripe.subscriptions.get(before.id)!.items.data[0].quantity).toBe(3);
        const [after] = await billing.server.database.db.select().from(subscriptions).where(eq(subscriptions.organizationId, orgA));
        expect(after.seats).toBe(3);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it("moves the seats down when a member is removed", async () => {
    const [before] = await billing.server.database.db.select().from(subscriptions).where(eq(subscriptions.organizationId, orgA));
    const full = await ownerA.request(`/api/auth/organization/get-full-organization?organizationId=${orgA}`);
    const admin = full.body.members.find((entry: { role: string }) => entry.role === "admin");
    const removed = await ownerA.request("/api/auth/organization/remove-member", { body: { organizationId: orgA, memberIdOrEmail: admin.id } });
    expect(removed.status, removed.text).toBe(200);
    await vi.waitFor(
      async () => {
        expect(billing.stripe.subscriptions.get(before.id)!.items.data[0].quantity).toBe(2);
        const [after] = await billing.server.database.db.select().from(subscriptions).where(eq(subscriptions.organizationId, orgA));
        expect(after.seats).toBe(2);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it("answers signed-out callers 401", async () => {
    const anonymous = await fetch(`${billing.server.url}/api/v1/billing/subscriptions/${orgA}?active=true`);
    expect(anonymous.status).toBe(401);
  });
});
