import { and, eq, inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Plan } from "../../shared/billing.inputs";
import type { ServiceContext } from "../context";
import type { Db } from "../db/client";
import { subscriptions } from "../db/schema";
import type { Env } from "../env";
import { AppError } from "../errors";

/** Subscription statuses that grant the paid plan; past_due keeps access while the provider retries the payment. */
export const ENTITLED_STATUSES = ["active", "trialing", "past_due"] as const;

/** Plans are a hosted-deployment concept (spec §6): self-hosted installations get every feature, unchecked. */
export function plansApply(env: Pick<Env, "DEPLOYMENT_MODE">): boolean {
  return env.DEPLOYMENT_MODE === "FAULTLINE_CLOUD";
}

/** The organization's current plan from its stored subscriptions: plus when one is in an entitled status. */
export async function organizationPlan(db: Db, organizationId: string): Promise<Plan> {
  const rows = await db
    .select({ plan: subscriptions.plan })
    .from(subscriptions)
    .where(and(eq(subscriptions.organizationId, organizationId), inArray(subscriptions.status, [...ENTITLED_STATUSES])))
    .limit(1);
  return rows[0]?.plan === "plus" ? "plus" : "free";
}

/**
 * True where the organization in `organizationId` (a column of the outer query) is on plus, as
 * organizationPlan decides it: for reading many organizations' plans in one statement.
 */
export function onPlusPlan(organizationId: AnyColumn): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${subscriptions} where ${subscriptions.organizationId} = ${organizationId} and ${inArray(subscriptions.status, [...ENTITLED_STATUSES])} and ${subscriptions.plan} = 'plus')`;
}

/**
 * Throws FORBIDDEN unless the organization may use a feature that needs `required` — always allowed
 * when self-hosted or when the requirement is `free` (no query is made then).
 */
export async function requirePlan(ctx: Pick<ServiceContext, "env" | "db">, organizationId: string, required: Plan, feature: string): Promise<void> {
  if (!plansApply(ctx.env) || required === "free") return;
  if ((await organizationPlan(ctx.db, organizationId)) === required) return;
  throw new AppError("FORBIDDEN", `${feature} needs the ${required} plan. An owner or admin can upgrade on the plans page (/plus).`, {
    reason: "plan_required",
    plan: required,
  });
}
