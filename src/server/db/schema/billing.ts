import { boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organization } from "./auth";

/**
 * An organization's paid subscription as the billing provider last reported it (hosted deployment
 * only). Written only from verified provider webhooks; read by the plan gate (billing/organization-plan.ts).
 * No row, or no row in an active status, means the organization is on the free plan.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    /** The provider's subscription id (Stripe `sub_…`). */
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    plan: text("plan").notNull(),
    /** active | trialing | past_due | canceled | incomplete | incomplete_expired | unpaid | paused */
    status: text("status").notNull(),
    seats: integer("seats").notNull().default(1),
    currentPeriodStart: timestamp("current_period_start", { withTimezone: true }),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("subscriptions_organization_idx").on(t.organizationId)],
);
