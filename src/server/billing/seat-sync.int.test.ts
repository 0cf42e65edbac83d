import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUS_PRICE, startBillingServer, type BillingTestServer } from "../../../test/helpers/billing-server";
import { addMember, orgPost, ownerWithOrganization } from "../../../test/auth/org-kit";

/**
 * Seats follow membership on the hosted deployment (seat-sync.ts). better-auth 1.7 calls an
 * organization hook when a member is added or removed, but none when one leaves by themselves: the
 * subscription kept a seat too many until the next membership change.
 */
describe("subscription seats follow a member who leaves", () => {
  let billing: BillingTestServer;
  beforeAll(async () => {
    billing = await startBillingServer();
  }, 60_000);
  afterAll(() => billing.close());

  it("drops the seat of a member who leaves the organization", async () => {
    const { owner, org } = await ownerWithOrganization(billing.server, "Seats");
    const member = await addMember(billing.server, owner.session, org.id, "member");
    const started = await owner.session.mutation("billing.checkout", { plan: "plus" });
    expect(started.error).toBeUndefined();
    const customer = [...billing.stripe.customers.values()][0].id;
    const subscription = billing.stripe.createSubscription({ customer, price: PLUS_PRICE, quantity: 2, metadata: { organizationId: org.id } });
    expect((await billing.stripe.deliver(billing.stripe.event("customer.subscription.created", subscription))).status).toBe(200);
    const seats = () => billing.stripe.subscriptions.get(subscription.id)!.items.data[0].quantity;
    expect(seats()).toBe(2);

    const left = await orgPost(member.session, "leave", { organizationId: org.id });
    expect(left.status, left.text).toBe(200);
    expect(seats()).toBe(1);
  });
});
