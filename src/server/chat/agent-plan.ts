import { requirePlan } from "../billing/organization-plan";
import type { ServiceContext } from "../context";

export const AGENT_FEATURE = "The AI agent";

/** The plan gate of every chat call (spec §6): the plan AI_REQUIRED_PLAN names, on FAULTLINE_CLOUD only. */
export function requireAgentPlan(ctx: Pick<ServiceContext, "env" | "db">, organizationId: string) {
  return requirePlan(ctx, organizationId, ctx.env.AI_REQUIRED_PLAN, AGENT_FEATURE);
}
