import type { AgentStatus, AgentUsage } from "../../shared/chat.views";
import { modelConfigurationProblem, MODEL_NOT_CONFIGURED } from "./model-provider";
import type { ServiceContext } from "../context";
import { selectUsageSince, tokensUsedOn, utcToday } from "./token-usage.queries";

const USAGE_DAYS = 30;

/** Not plan-gated: the screens need it to say what is missing (a provider, the plan, budget left). */
export async function agentStatus(ctx: ServiceContext): Promise<AgentStatus> {
  const problem = ctx.modelProvider ? null : (modelConfigurationProblem(ctx.env) ?? MODEL_NOT_CONFIGURED);
  return {
    configured: problem === null,
    problem,
    modelId: ctx.modelProvider?.modelId ?? null,
    maxToolSteps: ctx.env.AI_MAX_TOOL_STEPS,
    dailyTokenBudget: ctx.env.AI_DAILY_TOKEN_BUDGET,
    tokensUsedToday: await tokensUsedOn(ctx.db, ctx.org.organizationId),
  };
}

/** Tokens per UTC day over the last 30 days, newest first (organization settings). */
export async function agentUsage(ctx: ServiceContext): Promise<AgentUsage> {
  const from = utcToday(new Date(Date.now() - (USAGE_DAYS - 1) * 86_400_000));
  const days = await selectUsageSince(ctx.db, ctx.org.organizationId, from);
  return { dailyTokenBudget: ctx.env.AI_DAILY_TOKEN_BUDGET, days };
}
