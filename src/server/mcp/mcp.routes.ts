import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Router } from "express";
import { assertTokenScope, authenticateApiToken, bearerTokenOf } from "../api-tokens/api-token-auth";
import type { AppServices } from "../context";
import { refuse, refuseAuthError } from "./mcp-errors";
import { createMcpServer } from "./mcp-server";

/** The scope an API token needs for the MCP endpoint: its tools only read events and issues. */
export const MCP_SCOPE = "event:read";

/**
 * `/api/mcp`: a Model Context Protocol server over streamable HTTP, stateless (a fresh server per
 * request, so any replica answers any call), authenticated by an organization API token.
 */
export function mcpRoutes(services: AppServices) {
  const routes = Router();
  routes.post("/", async (req, res) => {
    const secret = bearerTokenOf(req.headers.authorization);
    if (!secret) return refuse(res, 401, "An organization API token is required: Authorization: Bearer flt_…");
    let token;
    try {
      token = await authenticateApiToken(services, secret);
      assertTokenScope(token, MCP_SCOPE);
    } catch (error) {
      if (refuseAuthError(res, error)) return;
      throw error;
    }
    const server = createMcpServer(services, token);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Stateless: there is no session to stream to (GET) or to end (DELETE).
  routes.all("/", (_req, res) => {
    res.setHeader("Allow", "POST");
    refuse(res, 405, "Method not allowed: this MCP server is stateless and answers POST only");
  });
  return routes;
}
