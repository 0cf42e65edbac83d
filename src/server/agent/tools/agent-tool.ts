import type { z } from "zod";
import type { AgentToolName } from "../../../shared/agent-tool-names";
import type { AgentScope } from "./agent-scope";

/**
 * One tool of the agent, independent of any transport: the chat wraps it as an AI SDK tool
 * (agent/ai-sdk-tools.ts), an MCP server can register the read ones as they are. `execute` calls
 * the triage services (never its own SQL), so it has exactly the checks the triage screens have.
 */
export interface AgentTool<Schema extends z.ZodType = z.ZodType, Output = unknown, Name extends AgentToolName = AgentToolName> {
  /** One of the shared names (shared/agent-tool-names.ts), which the chat screen labels. */
  name: Name;
  description: string;
  input: Schema;
  /** Writes run only after the user approved the call (AI SDK tool approval). */
  kind: "read" | "write";
  execute(scope: AgentScope, input: z.output<Schema>): Promise<Output>;
}

/** Keeps each tool's input type tied to its schema while the lists hold them side by side. */
export function defineAgentTool<Schema extends z.ZodType, Output, Name extends AgentToolName>(
  tool: AgentTool<Schema, Output, Name>,
): AgentTool<Schema, Output, Name> {
  return tool;
}
