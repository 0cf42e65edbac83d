import type { AgentScope } from "./agent-scope";

const DAY_MS = 86_400_000;

export interface ToolWindow {
  from: Date;
  to: Date;
}

/**
 * The window a tool looks at: what the model asked for, else the conversation's window, else the
 * last `defaultDays` days. A reversed window is swapped rather than refused: models do that.
 */
export function resolveWindow(scope: AgentScope, input: { dateFrom?: string; dateTo?: string }, defaultDays: number, now = new Date()): ToolWindow {
  const to = input.dateTo ? new Date(input.dateTo) : (scope.window?.to ?? now);
  const from = input.dateFrom ? new Date(input.dateFrom) : (scope.window?.from ?? new Date(to.getTime() - defaultDays * DAY_MS));
  return from <= to ? { from, to } : { from: to, to: from };
}

export const utcDayOf = (date: Date) => date.toISOString().slice(0, 10);

/** The window of the same length just before `window`. */
export function previousWindow(window: ToolWindow): ToolWindow {
  const length = window.to.getTime() - window.from.getTime();
  return { from: new Date(window.from.getTime() - length), to: window.from };
}
