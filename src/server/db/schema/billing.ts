import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
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
    /** When the last invoice payment failed and no later invoice was paid (the billing page's banner). */
    paymentFailedAt: timestamp("payment_failed_at", { withTimezone: true }),
    /**
     * The provider's `created` time (seconds) of the event the row was last written from. Webhooks
     * arrive out of order: an event older than this one must not undo what it wrote.
     */
    providerEventCreated: bigint("provider_event_created", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("subscriptions_organization_idx").on(t.organizationId)],
);

/** The provider's customer of each organization: one per organization, created at the first checkout. */
export const billingCustomers = pgTable("billing_customers", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organization.id, { onDelete: "cascade" }),
  /** Stripe `cus_…`. */
  customerId: text("customer_id").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Webhook events already applied, by the provider's event id: a redelivery (or ten at once) changes nothing. */
export const billingWebhookEvents = pgTable("billing_webhook_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  organizationId: text("organization_id"),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Quota notices mailed to owners (80 and 100 percent), once per organization, month and threshold across replicas. */
export const usageNotices = pgTable(
  "usage_notices",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    /** The quota month, `YYYY-MM` (UTC). */
    month: text("month").notNull(),
    percent: integer("percent").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.month, t.percent] })],
);
