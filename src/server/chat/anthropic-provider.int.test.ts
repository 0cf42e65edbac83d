import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiTokenUsage } from "../db/schema/index";
import { askAgent, userMessage } from "../../../test/helpers/chat-stream";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { chatServerWithCheckoutIssue, checkoutAnswerStep } from "../../../test/helpers/chat-provider-server";
import { triageTenant } from "../../../test/helpers/triage-seed";
import {
  ANTHROPIC_STAND_IN_USAGE,
  ANTHROPIC_VERSION,
  startAnthropicStandIn,
  type AnthropicReply,
  type AnthropicStandIn,
  type MessagesRequest,
} from "../../../test/stand-ins/anthropic.server";
import { AGENT_TOOLS } from "../agent/tools/agent-tools";
import { createModelProvider } from "./model-factory";

const API_KEY = "sk-ant-standin";
const toolResults = (request: MessagesRequest) =>
  request.messages.flatMap((message) => (typeof message.content === "string" ? [] : message.content.filter((block) => block.type === "tool_result")));

/**
 * The real provider path over HTTP: @ai-sdk/anthropic (built from AI_PROVIDER=anthropic settings)
 * against a loopback server speaking the Messages API wire protocol.
 */
describe("the chat over the Anthropic Messages API", () => {
  let standIn: AnthropicStandIn;
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof chatServerWithCheckoutIssue>>["tenant"];
  let issueId: string;
  let script: (request: MessagesRequest) => AnthropicReply;

  beforeAll(async () => {
    standIn = await startAnthropicStandIn(API_KEY, (request) => script(request));
    const modelProvider = createModelProvider({
      AI_PROVIDER: "anthropic",
      AI_MODEL: "claude-haiku-4-5",
      ANTHROPIC_API_KEY: API_KEY,
      ANTHROPIC_BASE_URL: standIn.baseUrl,
    });
    ({ server, tenant, issueId } = await chatServerWithCheckoutIssue(modelProvider, "Anthropic"));
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await standIn.close();
  });

  it("streams tool calls and the answer through the provider package, with usage counted and a generated title", async () => {
    script = (request) => checkoutAnswerStep(Boolean(request.stream), toolResults(request).length, issueId);
    const before = standIn.requests.length;
    const conversationId = crypto.randomUUID();
    const answer = await askAgent(tenant.session, tenant.project.id, { id: conversationId, message: userMessage("What broke?") });
    expect(answer.status, answer.raw).toBe(200);
    expect(answer.text).toBe("One checkout error, seen once.");
    expect(answer.chunks.filter((chunk) => chunk.type === "tool-output-available").map((chunk) => JSON.stringify(chunk.output))).toEqual([
      expect.stringContaining(issueId),
      expect.stringContaining('"eventCount":1'),
    ]);

    const sent = standIn.requests.slice(before);
    const streamed = sent.filter((request) => request.stream);
    expect(streamed).toHaveLength(3);
    expect(streamed[0].model).toBe("claude-haiku-4-5");
    expect(streamed[0].max_tokens).toBeGreaterThan(0);
    expect(streamed[0].tools?.map((tool) => tool.name).sort()).toEqual(AGENT_TOOLS.map((tool) => tool.name).sort());
    expect(JSON.stringify(streamed[0].system)).toContain(tenant.project.id);
    expect(standIn.headers[before]).toMatchObject({ "x-api-key": API_KEY, "anthropic-version": ANTHROPIC_VERSION });
    // The tool results reached the model as tool_result blocks tied to the tool_use ids it sent.
    const lastResults = toolResults(streamed[2]);
    expect(lastResults).toHaveLength(2);
    expect(lastResults.every((block) => block.tool_use_id?.startsWith("toolu_standin_"))).toBe(true);
    expect(JSON.stringify(lastResults[1].content)).toContain(issueId);
    const assistantTurns = streamed[2].messages.filter((message) => message.role === "assistant");
    expect(
      assistantTurns.flatMap((message) => (typeof message.content === "string" ? [] : message.content)).filter((block) => block.type === "tool_use"),
    ).toEqual([
      expect.objectContaining({ name: "searchIssues", input: { text: "Checkout", sort: "lastSeen", direction: "DESC", limit: 10 } }),
      expect.objectContaining({ name: "getIssue", input: { issueId } }),
    ]);

    const { data: stored } = await tenant.session.query("conversation.get", { id: conversationId });
    expect(stored.title).toBe("Checkout errors today");
    expect(stored.messages[1].metadata).toMatchObject({
      inputTokens: 3 * ANTHROPIC_STAND_IN_USAGE.input_tokens,
      outputTokens: 3 * ANTHROPIC_STAND_IN_USAGE.output_tokens,
      modelId: "claude-haiku-4-5",
    });
    const [usage] = await server.database.db.select().from(aiTokenUsage).where(eq(aiTokenUsage.organizationId, tenant.org.id));
    // Three answer steps and the title.
    expect(usage).toMatchObject({ inputTokens: 4 * ANTHROPIC_STAND_IN_USAGE.input_tokens, outputTokens: 4 * ANTHROPIC_STAND_IN_USAGE.output_tokens });
  });

  it("ends the stream with an error part when the API is overloaded (529), keeps the question, and recovers", async () => {
    script = () => ({ status: 529, errorType: "overloaded_error", message: "Overloaded: internal-secret-detail" });
    const conversationId = crypto.randomUUID();
    const failed = await askAgent(tenant.session, tenant.project.id, { id: conversationId, message: userMessage("Are you there?") });
    expect(failed.status).toBe(200);
    expect(failed.chunks.find((chunk) => chunk.type === "error")?.errorText).toBe("The model provider answered with an error (HTTP 529). Try again.");
    expect(failed.raw).not.toContain("internal-secret-detail");
    const { data: kept } = await tenant.session.query("conversation.get", { id: conversationId });
    expect(kept.messages.map((message: { role: string }) => message.role)).toEqual(["user"]);

    script = (request) => (request.stream ? { text: "Yes, back." } : { text: "Title" });
    const recovered = await askAgent(tenant.session, tenant.project.id, { id: conversationId, message: userMessage("Now?") });
    expect(recovered.text).toBe("Yes, back.");
    const { data: history } = await tenant.session.query("conversation.get", { id: conversationId });
    expect(history.messages.map((message: { role: string }) => message.role)).toEqual(["user", "user", "assistant"]);
  });

  it("says the credentials were refused when the API key is wrong", async () => {
    const wrongKey = createModelProvider({
      AI_PROVIDER: "anthropic",
      AI_MODEL: "claude-haiku-4-5",
      ANTHROPIC_API_KEY: "sk-ant-wrong",
      ANTHROPIC_BASE_URL: standIn.baseUrl,
    });
    const other = await startTestServer({ outside: { modelProvider: wrongKey } });
    try {
      const someone = await triageTenant(other, "Wrong key");
      const answer = await askAgent(someone.session, someone.project.id, { id: crypto.randomUUID(), message: userMessage("Hello?") });
      expect(answer.chunks.find((chunk) => chunk.type === "error")?.errorText).toBe("The model provider refused the credentials Faultline is configured with.");
    } finally {
      await other.close();
    }
  }, 60_000);
});
