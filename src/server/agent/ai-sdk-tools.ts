import { tool, zodSchema, type ToolSet } from "ai";
import { AppError } from "../errors";
import type { Logger } from "../logger";
import type { AgentScope } from "./tools/agent-scope";
import type { AgentTool } from "./tools/agent-tool";
import { AGENT_TOOLS } from "./tools/agent-tools";

/**
 * What the model reads when a tool fails: the domain's own message for expected refusals (an id
 * outside the project is "Issue not found", a role that may not triage is said so), nothing of an
 * unexpected error — its cause goes to the log, as with every other transport.
 */
function toolFailure(error: unknown, toolName: string, logger: Logger): AgentToolError {
  if (error instanceof AppError) return new AgentToolError(error.message);
  logger.error("agent tool failed", { tool: toolName, err: error });
  return new AgentToolError(`${toolName} failed unexpectedly`);
}

/** A tool failure whose message is safe to show (the stream's error handler lets these through). */
export class AgentToolError extends Error {
  override name = "AgentToolError";
}

/**
 * Each tool's input schema, wrapped once per process. Given the zod schema itself, the AI SDK wraps
 * it anew for every model call and converts it to JSON Schema each time: nine tools, three calls per
 * answer, a measurable share of an answer's CPU (bench:chat). The wrapper keeps its conversion.
 */
const inputSchemas = new WeakMap<AgentTool, ReturnType<typeof zodSchema>>();
function inputSchemaOf(agentTool: AgentTool) {
  let schema = inputSchemas.get(agentTool);
  if (!schema) inputSchemas.set(agentTool, (schema = zodSchema(agentTool.input)));
  return schema;
}

function asAiSdkTool(agentTool: AgentTool, scope: AgentScope, logger: Logger) {
  return tool({
    description: agentTool.description,
    inputSchema: inputSchemaOf(agentTool),
    // Writes wait for the user's approval in the chat; the approval itself never widens the scope.
    needsApproval: agentTool.kind === "write",
    execute: async (input: unknown) => {
      try {
        return await agentTool.execute(scope, input);
      } catch (error) {
        throw toolFailure(error, agentTool.name, logger);
      }
    },
  });
}

/**
 * The chat's tools for one request, closed over the conversation's project and the caller's
 * membership: the model can name issues and exceptions, never an organization or a project.
 */
export function agentToolSet(scope: AgentScope, logger: Logger, tools: readonly AgentTool[] = AGENT_TOOLS): ToolSet {
  return Object.fromEntries(tools.map((agentTool) => [agentTool.name, asAiSdkTool(agentTool, scope, logger)]));
}
