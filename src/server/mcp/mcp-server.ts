import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AgentScope } from "../agent/tools/agent-scope";
import type { AgentTool } from "../agent/tools/agent-tool";
import { READ_TOOLS } from "../agent/tools/agent-tools";
import type { TokenScope } from "../api-tokens/api-token-auth";
import type { Db } from "../db/client";
import type { Logger } from "../logger";
import { requireProject } from "../projects/project-scope";
import { selectProjects } from "../projects/project.queries";
import { toolError } from "./mcp-errors";

const projectIdInput = z.uuid().describe("The project to look in (an id from listProjects)");

function asText(value: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }] };
}

/**
 * The agent's read tools for an assistant outside Faultline, acting in the token's organization.
 * Unlike the chat, an MCP session is not bound to one project, so each tool takes a `projectId`
 * that is checked against the token's organization before the tool runs (another organization's
 * project answers "Project not found", like a missing one). Write tools are not offered: there is
 * nobody to approve them.
 */
export function createMcpServer(deps: { db: Db; logger: Logger }, token: TokenScope): McpServer {
  const server = new McpServer({ name: "faultline", version: "1.0.0" }, { capabilities: { tools: {} } });
  const run = async (work: () => Promise<unknown>): Promise<CallToolResult> => {
    try {
      return asText(await work());
    } catch (error) {
      return toolError(error, deps.logger, token.tokenId);
    }
  };

  server.registerTool(
    "listProjects",
    { description: "The organization's projects (id, name, platform). Every other tool takes one of these ids as projectId.", inputSchema: z.object({}) },
    () => run(async () => (await selectProjects(deps.db, token.organizationId)).map(({ id, name, platform }) => ({ id, name, platform }))),
  );
  for (const tool of READ_TOOLS as readonly AgentTool[]) registerProjectTool(server, deps, token, tool, run);
  return server;
}

function registerProjectTool(
  server: McpServer,
  deps: { db: Db },
  token: TokenScope,
  tool: AgentTool,
  run: (work: () => Promise<unknown>) => Promise<CallToolResult>,
) {
  const input = (tool.input as z.ZodObject).extend({ projectId: projectIdInput });
  server.registerTool(tool.name, { description: tool.description, inputSchema: input }, (args: Record<string, unknown>) =>
    run(async () => {
      const { projectId, ...rest } = input.parse(args) as { projectId: string };
      const project = await requireProject({ db: deps.db, org: token }, projectId);
      const scope: AgentScope = { db: deps.db, org: token, projectId, checkedProject: project };
      return tool.execute(scope, tool.input.parse(rest));
    }),
  );
}
