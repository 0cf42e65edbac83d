import type { CheckoutInput, Plan } from "../../shared/billing.inputs";
import type { BillingRedirect, BillingUsage, PlanCatalog, QuotaState, SubscriptionView } from "../../shared/billing.views";
import type { ServiceContext } from "../context";
import { AppError } from "../errors";
import { requirePermission } from "../organizations/permissions";
import { organization } from "../db/schema/index";
import { eq } from "drizzle-orm";
import type { BillingProvider } from "./billing-provider";
import { customerOf, memberCount, monthOutcomes, selectSubscriptions, storeCustomer } from "./billing.queries";
import { planLimits, quotaMonth } from "./billing-plans";
import { organizationPlan, plansApply } from "./organization-plan";

/** Billing exists on the hosted deployment only (spec §6): elsewhere every billing call is NOT_FOUND, with a message that says why. */
function hostedBilling(ctx: ServiceContext): BillingProvider {
  if (!plansApply(ctx.env) || !ctx.billing) {
    throw new AppError("NOT_FOUND", "Billing is only available on Faultline Cloud: this installation is self-hosted and has no plans or subscriptions.");
  }
  return ctx.billing;
}

export async function listSubscriptions(ctx: ServiceContext, input: { active?: boolean }): Promise<SubscriptionView[]> {
  hostedBilling(ctx);
  const rows = await selectSubscriptions(ctx.db, ctx.org.organizationId, input.active === true);
  return rows.map((row) => ({ ...row, plan: row.plan === "plus" ? "plus" : "free", status: row.status as SubscriptionView["status"] }));
}

export function planCatalog(ctx: ServiceContext): PlanCatalog {
  hostedBilling(ctx);
  return { plans: (["free", "plus"] as Plan[]).map((plan) => planLimits(ctx.env, plan)) };
}

export async function startCheckout(ctx: ServiceContext, input: CheckoutInput): Promise<BillingRedirect> {
  const provider = hostedBilling(ctx);
  await requirePermission(ctx, "billing:manage");
  const organizationId = ctx.org.organizationId;
  if ((await organizationPlan(ctx.db, organizationId)) === input.plan) {
    throw new AppError("CONFLICT", "The organization is already on the plus plan. Use Manage billing to change or cancel it.");
  }
  const customerId = (await customerOf(ctx.db, organizationId)) ?? (await createCustomer(ctx, provider));
  const appUrl = ctx.env.API_URL.replace(/\/$/, "");
  const url = await provider.checkoutUrl({
    organizationId,
    customerId,
    plan: input.plan,
    // One seat per member; membership changes update it afterwards (seat-sync.ts).
    seats: Math.max(1, await memberCount(ctx.db, organizationId)),
    successUrl: `${appUrl}/plus/success?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${appUrl}/plus`,
  });
  return { url };
}

async function createCustomer(ctx: ServiceContext, provider: BillingProvider) {
  const [org] = await ctx.db.select({ name: organization.name }).from(organization).where(eq(organization.id, ctx.org.organizationId));
  const created = await provider.createCustomer({ organizationId: ctx.org.organizationId, name: org?.name ?? ctx.org.organizationId });
  return storeCustomer(ctx.db, ctx.org.organizationId, created);
}

export async function openPortal(ctx: ServiceContext): Promise<BillingRedirect> {
  const provider = hostedBilling(ctx);
  await requirePermission(ctx, "billing:manage");
  const customerId = await customerOf(ctx.db, ctx.org.organizationId);
  if (!customerId) throw new AppError("NOT_FOUND", "This organization has no billing account yet: upgrade to plus first.");
  const url = await provider.portalUrl({ customerId, returnUrl: `${ctx.env.API_URL.replace(/\/$/, "")}/settings/organization/billing` });
  return { url };
}

export async function billingUsage(ctx: ServiceContext, now = new Date()): Promise<BillingUsage> {
  hostedBilling(ctx);
  const organizationId = ctx.org.organizationId;
  const { month, start, next } = quotaMonth(now);
  const [plan, projects, seats] = await Promise.all([
    organizationPlan(ctx.db, organizationId),
    monthOutcomes(ctx.db, organizationId, start),
    memberCount(ctx.db, organizationId),
  ]);
  const limits = planLimits(ctx.env, plan);
  return {
    plan,
    month,
    resetsAt: next,
    quota: limits.monthlyEvents,
    used: projects.reduce((sum, project) => sum + project.accepted, 0),
    retentionDays: limits.retentionDays,
    seats,
    projects,
  };
}

/**
 * Whether events are being refused for the month's quota, for the banner owners and admins see on
 * every screen (issue 37: over quota, the app said nothing). Those who can act on it — billing:manage —
 * may ask. Counted from the hourly outcomes ingest keeps, like the usage page.
 */
export async function quotaState(ctx: ServiceContext, now = new Date()): Promise<QuotaState> {
  hostedBilling(ctx);
  await requirePermission(ctx, "billing:manage");
  const organizationId = ctx.org.organizationId;
  const { month, start, next } = quotaMonth(now);
  const [plan, projects] = await Promise.all([organizationPlan(ctx.db, organizationId), monthOutcomes(ctx.db, organizationId, start)]);
  const quota = planLimits(ctx.env, plan).monthlyEvents;
  const used = projects.reduce((sum, project) => sum + project.accepted, 0);
  const refused = projects.reduce((sum, project) => sum + project.overQuota, 0);
  return { refusing: quota > 0 && used >= quota, month, resetsAt: next, quota, used, refused };
}
