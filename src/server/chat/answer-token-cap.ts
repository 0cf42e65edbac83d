import type { StepResult, StopCondition, ToolSet } from "ai";

const stepTokens = (step: StepResult<ToolSet>) => (step.usage.inputTokens ?? 0) + (step.usage.outputTokens ?? 0);

/**
 * Stops the agent loop before a step that would take the answer past `capTokens`. Each step
 * resends the whole prompt so far, the last step's input and output included, so the next step is
 * at least as large as the last one: that is the estimate. The cap is what the answer holds back
 * from the daily budget (token-budget.queries.ts), so an answer must not outgrow it.
 */
export function answerTokenCapReached(capTokens: number): StopCondition<ToolSet> {
  return ({ steps }) => {
    const spent = steps.reduce((sum, step) => sum + stepTokens(step), 0);
    const last = steps.at(-1);
    return spent + (last ? stepTokens(last) : 0) > capTokens;
  };
}
