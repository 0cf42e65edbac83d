import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiTokenUsage } from "../db/schema/index";
import { askAgent, userMessage } from "../../../test/helpers/chat-stream";
import type { TestServer } from "../../../test/helpers/test-server";
import { chatServerWithCheckoutIssue, checkoutAnswerStep } from "../../../test/helpers/chat-provider-server";
import {
  STAND_IN_USAGE,
  startOpenAiCompatibleStandIn,
  type OpenAiCompatibleStandIn,
  type StandInReply,
} from "../../../test/stand-ins/openai-compatible.server";
import { AGENT_TOOLS } from "../agent/tools/agent-tools";
import { createModelProvider } from "./model-factory";

/**
 * The real provider path over HTTP: @ai-sdk/openai-compatible (built from AI_PROVIDER settings)
 * against a loopback server speaking the Chat Completions wire protocol.
 */
describe("the chat over an OpenAI-compatible server", () => {
  let standIn: OpenAiCompatibleStandIn;
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof chatServerWithCheckoutIssue>>["tenant"];
  let issueId: string;
  let script: (request: Parameters<OpenAiCompatibleStandIn["reply"]>[0]) => StandInReply;

  beforeAll(async () => {
    standIn = await startOpenAiCompatibleStandIn((request) => script(request));
    const modelProvider = createModelProvider({
      AI_PROVIDER: "openai-compatible",
      AI_BASE_URL: standIn.baseUrl,
      AI_MODEL: "llama3.1:8b",
      AI_API_KEY: "standin-key",
    });
    ({ server, tenant, issueId } = await chatServerWithCheckoutIssue(modelProvider, "Compatible"));
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await standIn.close();
  });

  it("streams tool calls and the answer through the provider package, with usage counted and a generated title", async () => {
    script = (request) => checkoutAnswerStep(Boolean(request.stream), request.messages.filter((message) => message.role === "tool").length, issueId);
    const conversationId = crypto.randomUUID();
    const answer = await askAgent(tenant.session, tenant.project.id, { id: conversationId, message: userMessage("What broke?") });
    expect(answer.status, answer.raw).toBe(200);
    expect(answer.text).toBe("One checkout error, seen once.");
    expect(answer.chunks.filter((chunk) => chunk.type === "tool-output-available").map((chunk) => JSON.stringify(chunk.output))).toEqual([
      expect.stringContaining(issueId),
      expect.stringContaining('"eventCount":1'),
    ]);

    const streamed = standIn.requests.filter((request) => request.stream);
    expect(streamed).toHaveLength(3);
    expect(streamed[0].model).toBe("llama3.1:8b");
    expect(streamed[0].stream_options?.include_usage).toBe(true);
    expect(streamed[0].tools?.map((tool) => tool.function.name).sort()).toEqual(AGENT_TOOLS.map((tool) => tool.name).sort());
    expect(streamed[0].messages[0]).toMatchObject({ role: "system" });
    expect(standIn.headers[0].authorization).toBe("Bearer standin-key");
    // The tool result reached the model as a tool message, tied to its call.
    expect(JSON.stringify(streamed[2].messages.filter((message) => message.role === "tool"))).toContain(issueId);

    const { data: stored } = await tenant.session.query("conversation.get", { id: conversationId });
    expect(stored.title).toBe("Checkout errors today");
    expect(stored.messages[1].metadata).toMatchObject({ inputTokens: 3 * STAND_IN_USAGE.prompt_tokens, outputTokens: 3 * STAND_IN_USAGE.completion_tokens });
    const [usage] = await server.database.db.select().from(aiTokenUsage).where(eq(aiTokenUsage.organizationId, tenant.org.id));
    // Three answer steps and the title.
    expect(usage).toMatchObject({ inputTokens: 4 * STAND_IN_USAGE.prompt_tokens, outputTokens: 4 * STAND_IN_USAGE.completion_tokens });
  });

  it("ends the stream with an error part when the provider fails, keeps the question, and recovers", async () => {
    script = () => ({ status: 500, body: { error: { message: "upstream exploded: internal-secret-detail", type: "server_error" } } });
    const conversationId = crypto.randomUUID();
    const failed = await askAgent(tenant.session, tenant.project.id, { id: conversationId, message: userMessage("Are you there?") });
    expect(failed.status).toBe(200);
    const error = failed.chunks.find((chunk) => chunk.type === "error");
    expect(error?.errorText).toBe("The model provider answered with an error (HTTP 500). Try again.");
    expect(failed.raw).not.toContain("internal-secret-detail");
    const { data: kept } = await tenant.session.query("conversation.get", { id: conversationId });
    expect(kept.messages.map((message: { role: string }) => message.role)).toEqual(["user"]);

    // Retry (the screen's button) re-sends the unanswered question; it is not stored twice.
    const question = userMessage("Are you still there?");
    await askAgent(tenant.session, tenant.project.id, { id: conversationId, message: question });
    script = (request) => (request.stream ? { text: "Yes." } : { text: "Title" });
    const retried = await askAgent(tenant.session, tenant.project.id, { id: conversationId, message: question });
    expect(retried.text).toBe("Yes.");
    script = () => ({ status: 500, body: {} });
    const { data: afterRetry } = await tenant.session.query("conversation.get", { id: conversationId });
    expect(afterRetry.messages.map((message: { role: string }) => message.role)).toEqual(["user", "user", "assistant"]);

    script = () => ({ garbage: "data: {this is not json\n\ndata: [DONE]\n\n" });
    const garbled = await askAgent(tenant.session, tenant.project.id, { id: conversationId, message: userMessage("Try again") });
    expect(garbled.status).toBe(200);
    expect(garbled.chunks.some((chunk) => chunk.type === "error")).toBe(true);
    expect(garbled.raw).not.toContain("this is not json");

    script = (request) => (request.stream ? { text: "Back again." } : { text: "Title" });
    const recovered = await askAgent(tenant.session, tenant.project.id, { id: conversationId, message: userMessage("Now?") });
    expect(recovered.text).toBe("Back again.");
    const { data: history } = await tenant.session.query("conversation.get", { id: conversationId });
    expect(history.messages.map((message: { role: string }) => message.role)).toEqual(["user", "user", "assistant", "user", "user", "assistant"]);
  });
});
