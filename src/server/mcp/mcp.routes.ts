import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Router, type Response } from "express";
import { assertTokenScope, authenticateApiToken, bearerTokenOf } from "../api-tokens/api-token-auth";
import type { AppServices } from "../context";
import { AppError } from "../errors";
import { createMcpServer } from "./mcp-server";

/** The scope an API token needs for the MCP endpoint: its tools only read events and issues. */
export const MCP_SCOPE = "event:read";

/** A JSON-RPC error answer, as MCP clients expect even for transport-level refusals. */
function refuse(res: Response, status: number, message: string) {
  if (status === 401) res.setHeader("WWW-Authenticate", 'Bearer realm="faultline", error="invalid_token"');
  res.status(status).json({ jsonrpc: "2.0", error: { code: -32001, message }, id: null });
}

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
      if (error instanceof AppError && (error.code === "UNAUTHORIZED" || error.code === "FORBIDDEN"))
        return refuse(res, error.code === "UNAUTHORIZED" ? 401 : 403, error.message);
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
