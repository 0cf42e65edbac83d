import { z } from "zod";
import { PLANS } from "./billing.inputs";

export const SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due", "canceled", "incomplete", "incomplete_expired", "unpaid", "paused"] as const;

/** One subscription as `GET /api/v1/billing/subscriptions/{orgId}` answers it. */
export const SubscriptionView = z.object({
  id: z.string(),
  plan: z.enum(PLANS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  seats: z.number().int(),
  currentPeriodStart: z.date().nullable(),
  currentPeriodEnd: z.date().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** When the last payment failed (and none succeeded since): the billing page's banner. */
  paymentFailedAt: z.date().nullable(),
});
export type SubscriptionView = z.infer<typeof SubscriptionView>;

export const SubscriptionList = z.array(SubscriptionView);

/** A provider page to send the browser to (Checkout or the customer portal). */
export const BillingRedirect = z.object({ url: z.string() });
export type BillingRedirect = z.infer<typeof BillingRedirect>;

export const ProjectUsage = z.object({
  projectId: z.string(),
  projectName: z.string(),
  accepted: z.number().int(),
  rateLimited: z.number().int(),
  overQuota: z.number().int(),
});

/** This month's events against the plan's quota (`GET …/billing/usage`). */
export const BillingUsage = z.object({
  plan: z.enum(PLANS),
  /** The calendar month (UTC) counted, `YYYY-MM`, and when the next one starts. */
  month: z.string(),
  resetsAt: z.date(),
  /** Events accepted per month on this plan; 0 = unlimited. */
  quota: z.number().int(),
  used: z.number().int(),
  retentionDays: z.number().int(),
  seats: z.number().int(),
  projects: z.array(ProjectUsage),
});
export type BillingUsage = z.infer<typeof BillingUsage>;

/**
 * Whether the organization's events are being refused for its quota (`billing.quota`): the
 * banner owners and admins see on every screen while it is so.
 */
export const QuotaState = z.object({
  refusing: z.boolean(),
  month: z.string(),
  resetsAt: z.date(),
  /** Events per month on the plan (0 = unlimited) and those accepted this month. */
  quota: z.number().int(),
  used: z.number().int(),
  /** Events refused for the quota this month. */
  refused: z.number().int(),
});
export type QuotaState = z.infer<typeof QuotaState>;

/** What each plan includes, for the plans page (prices and limits come from the server's configuration). */
export const PlanCatalog = z.object({
  plans: z.array(
    z.object({
      plan: z.enum(PLANS),
      monthlyEvents: z.number().int(),
      retentionDays: z.number().int(),
      aiAgent: z.boolean(),
      priceLabel: z.string(),
    }),
  ),
});
export type PlanCatalog = z.infer<typeof PlanCatalog>;

/** The webhook's answer (Stripe reads only the status). */
export const WebhookReceipt = z.object({ received: z.literal(true), outcome: z.enum(["applied", "duplicate", "ignored"]) });
