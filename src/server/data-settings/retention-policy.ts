import type { Plan } from "../../shared/billing.inputs";
import { planLimits, type PlanSettings } from "../billing/billing-plans";
import { plansApply } from "../billing/organization-plan";
import type { Env } from "../env";

/** The settings retention reads: the product default, and on the hosted deployment the plans' days. */
export type RetentionSettings = Pick<Env, "RETENTION_DAYS" | "DEPLOYMENT_MODE"> & PlanSettings;

/** What bounds an organization's retention: the product default beneath its layers, the plan's cap above them. */
export interface RetentionPolicy {
  productDefault: number;
  /** null when self-hosted: no plans, no cap. */
  plan: Plan | null;
  planCap: number | null;
}

/** The policy of an organization on `plan` (ignored when self-hosted, where plans do not apply). */
export function retentionPolicy(env: RetentionSettings, plan: Plan): RetentionPolicy {
  if (!plansApply(env)) return { productDefault: env.RETENTION_DAYS, plan: null, planCap: null };
  return { productDefault: env.RETENTION_DAYS, plan, planCap: planLimits(env, plan).retentionDays };
}

/**
 * Product default → organization → project → the plan's cap. A value above the cap stays stored
 * as chosen and applies capped, so an upgrade restores it without anyone entering it again.
 */
export function effectiveRetention(policy: RetentionPolicy, organizationDays: number | null, projectDays: number | null): { days: number; capped: boolean } {
  const chosen = projectDays ?? organizationDays ?? policy.productDefault;
  if (policy.planCap !== null && chosen > policy.planCap) return { days: policy.planCap, capped: true };
  return { days: chosen, capped: false };
}
