import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { issueByType, sendEvent, triageTenant } from "../../../test/helpers/triage-seed";

type ToolText = { isError?: boolean; content: { type: string; text: string }[] };

/** The MCP endpoint driven by the official MCP TypeScript client over streamable HTTP. */
describe("MCP endpoint (/api/mcp)", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;
  let other: Awaited<ReturnType<typeof triageTenant>>;
  let issueId: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await triageTenant(server, "Mcp");
    other = await triageTenant(server, "Mcp Other");
    await sendEvent(server, tenant.project, { type: "PaymentDeclined", value: "card declined for order 42", fn: "chargeCard" });
    await sendEvent(server, other.project, { type: "OtherSecretError", value: "other-tenant-marker", fn: "otherHandler" });
    issueId = (await issueByType(tenant.session, tenant.project.id, "PaymentDeclined")).id;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
  });

  async function tokenFor(scopes: string[]) {
    const created = await tenant.session.mutation("apiToken.create", { name: "assistant", scopes });
    expect(created.error).toBeUndefined();
    return created.data as { token: { id: string }; secret: string };
  }

  async function connect(secret: string) {
    const client = new Client({ name: "faultline-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL("/api/mcp", server.url), { requestInit: { headers: { authorization: `Bearer ${secret}` } } });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const textOf = (result: unknown) => (result as ToolText).content.map((part) => part.text).join("\n");

  it("lists the read tools (and no write tool) and answers them in the token's organization", async () => {
    const client = await connect((await tokenFor(["event:read"])).secret);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toContain("listProjects");
    expect(names).toContain("searchIssues");
    expect(names).toContain("getException");
    expect(names).not.toContain("setIssueStatus");
    expect(names).not.toContain("setIssueSeverity");
    for (const tool of tools.filter((t) => t.name !== "listProjects")) expect(tool.inputSchema.required, tool.name).toContain("projectId");

    const projects = JSON.parse(textOf(await client.callTool({ name: "listProjects", arguments: {} })));
    expect(projects).toEqual([{ id: tenant.project.id, name: "Mcp project", platform: "NODE_JS" }]);
    const found = await client.callTool({ name: "searchIssues", arguments: { projectId: tenant.project.id, text: "declined" } });
    expect((found as ToolText).isError).toBeFalsy();
    const issues = JSON.parse(textOf(found));
    expect(issues.more).toBe(false);
    expect(issues.issues).toHaveLength(1);
    expect(JSON.stringify(issues)).toContain(issueId);
  });

  it("answers another organization's project, issue and bad input as errors, and leaks none of its data", async () => {
    const client = await connect((await tokenFor(["event:read"])).secret);
    const otherIssue = await issueByType(other.session, other.project.id, "OtherSecretError");
    const transcripts: string[] = [];
    const { tools } = await client.listTools();
    for (const tool of tools.filter((t) => t.name !== "listProjects")) {
      const result = (await client.callTool({ name: tool.name, arguments: { projectId: other.project.id, issueId: otherIssue.id } })) as ToolText;
      transcripts.push(textOf(result));
      expect(result.isError, tool.name).toBe(true);
    }
    const foreignIssue = (await client.callTool({ name: "getIssue", arguments: { projectId: tenant.project.id, issueId: otherIssue.id } })) as ToolText;
    expect(foreignIssue.isError).toBe(true);
    expect(textOf(foreignIssue)).toMatch(/not found/i);
    transcripts.push(textOf(foreignIssue));
    const bad = (await client.callTool({ name: "searchIssues", arguments: { projectId: "not-a-uuid" } })) as ToolText;
    expect(bad.isError).toBe(true);
    expect(transcripts.join("\n")).toContain("Project not found");
    expect(transcripts.join("\n")).not.toMatch(/other-tenant-marker|OtherSecretError|otherHandler/);
  });

  it("refuses a missing, revoked or under-scoped token with 401/403", async () => {
    const anonymous = await fetch(new URL("/api/mcp", server.url), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);

    const revoked = await tokenFor(["event:read"]);
    await tenant.session.mutation("apiToken.revoke", { tokenId: revoked.token.id });
    await expect(connect(revoked.secret)).rejects.toThrow(/401|Invalid or revoked API token/);

    const projectOnly = await tokenFor(["project:read"]);
    await expect(connect(projectOnly.secret)).rejects.toThrow(/403|lacks the event:read scope/);
  });
});
