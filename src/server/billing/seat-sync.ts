import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { subscriptions } from "../db/schema/index";
import type { Logger } from "../logger";
import type { BillingProvider } from "./billing-provider";
import { memberCount } from "./billing.queries";
import { ENTITLED_STATUSES } from "./organization-plan";

export interface SeatSyncDeps {
  db: Db;
  provider: BillingProvider;
  logger: Logger;
}

/**
 * Seats follow membership: sets the subscription's quantity to the member count (Stripe prorates
 * as it decides). Idempotent — it compares counts — so every membership hook may call it. The
 * stored seat count changes only when the provider's `customer.subscription.updated` webhook says so.
 */
export async function syncSeats(deps: SeatSyncDeps, organizationId: string): Promise<boolean> {
  const [subscription] = await deps.db
    .select({ id: subscriptions.id, seats: subscriptions.seats })
    .from(subscriptions)
    .where(and(eq(subscriptions.organizationId, organizationId), inArray(subscriptions.status, [...ENTITLED_STATUSES])))
    .limit(1);
  if (!subscription) return false;
  const seats = Math.max(1, await memberCount(deps.db, organizationId));
  const remote = await deps.provider.retrieveSubscription(subscription.id);
  if (!remote.itemId || remote.seats === seats) return false;
  await deps.provider.updateSeats({ subscriptionId: subscription.id, itemId: remote.itemId, seats });
  deps.logger.info("subscription seats updated", { organizationId, seats });
  return true;
}

/** For better-auth's membership hooks: runs beside the request that changed membership; a failure is logged, not the member's problem. */
export function seatSyncHook(deps: SeatSyncDeps) {
  return async (data: { organization: { id: string } }) => {
    await syncSeats(deps, data.organization.id).catch((error: unknown) =>
      deps.logger.warn("seat update failed", { organizationId: data.organization.id, err: error }),
    );
  };
}
