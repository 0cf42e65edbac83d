import type { Plan } from "../../shared/billing.inputs";
import type { Env } from "../env";

export type PlanSettings = Pick<
  Env,
  "PLAN_FREE_MONTHLY_EVENTS" | "PLAN_PLUS_MONTHLY_EVENTS" | "PLAN_FREE_RETENTION_DAYS" | "PLAN_PLUS_RETENTION_DAYS" | "PLAN_PLUS_PRICE_LABEL"
>;

export interface PlanLimits {
  plan: Plan;
  /** Events accepted per organization per calendar month (UTC); 0 = unlimited. */
  monthlyEvents: number;
  /** Recorded per plan now; the data-lifecycle jobs enforce it. */
  retentionDays: number;
  aiAgent: boolean;
  priceLabel: string;
}

/** What each plan includes, from configuration. */
export function planLimits(env: PlanSettings, plan: Plan): PlanLimits {
  return plan === "plus"
    ? { plan, monthlyEvents: env.PLAN_PLUS_MONTHLY_EVENTS, retentionDays: env.PLAN_PLUS_RETENTION_DAYS, aiAgent: true, priceLabel: env.PLAN_PLUS_PRICE_LABEL }
    : { plan, monthlyEvents: env.PLAN_FREE_MONTHLY_EVENTS, retentionDays: env.PLAN_FREE_RETENTION_DAYS, aiAgent: false, priceLabel: "Free" };
}

/** The quota month (UTC) a moment falls in, and when the next one starts. */
export function quotaMonth(at: Date): { month: string; start: Date; next: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const next = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { month: start.toISOString().slice(0, 7), start, next };
}
