import { simulateReadableStream } from "ai";
import { HOSTED_ENV_WITHOUT_STRIPE } from "../../../test/helpers/billing-server";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { subscriptions } from "../db/schema/index";
import { askAgent, userMessage } from "../../../test/helpers/chat-stream";
import { scriptedModel, text } from "../../../test/helpers/scripted-model";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { triageTenant } from "../../../test/helpers/triage-seed";
import { MODEL_NOT_CONFIGURED } from "./model-provider";

describe("chat gates: plan, configuration, one answer at a time", () => {
  describe("on FAULTLINE_CLOUD", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        env: HOSTED_ENV_WITHOUT_STRIPE,
        outside: { modelProvider: { modelId: "m", languageModel: () => scriptedModel([() => text("Hi.")]) } },
      });
    });
    afterAll(() => server.close());

    it("refuses every chat call without an active plus subscription (403 plan_required) and allows them with one", async () => {
      const tenant = await triageTenant(server, "Cloud");
      const ask = () => askAgent(tenant.session, tenant.project.id, { id: crypto.randomUUID(), message: userMessage("Hello") });
      const refused = await ask();
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: "FORBIDDEN", details: { reason: "plan_required", plan: "plus" } });
      expect(refused.body.error.message).toBe("The AI agent needs the plus plan. An owner or admin can upgrade on the plans page (/plus).");
      for (const path of ["/api/v1/ai/agents/conversations", `/api/v1/ai/agents/conversations/${crypto.randomUUID()}`]) {
        expect((await tenant.session.request(path)).status, path).toBe(403);
      }
      const listed = await tenant.session.query("conversation.list");
      expect(listed.error?.appCode ?? listed.error?.code).toBe("FORBIDDEN");
      // The status call stays open: the screens need it to send the user to /plus.
      expect((await tenant.session.query("agent.status")).error).toBeUndefined();

      await server.database.db
        .insert(subscriptions)
        .values({ id: `sub_${crypto.randomUUID()}`, organizationId: tenant.org.id, plan: "plus", status: "canceled" });
      expect((await ask()).status).toBe(403);
      await server.database.db
        .insert(subscriptions)
        .values({ id: `sub_${crypto.randomUUID()}`, organizationId: tenant.org.id, plan: "plus", status: "active" });
      const allowed = await ask();
      expect(allowed.status).toBe(200);
      expect(allowed.text).toBe("Hi.");
      expect((await tenant.session.request("/api/v1/ai/agents/conversations")).body).toHaveLength(1);
    });
  });

  describe("without a model provider", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(() => server.close());

    it("answers 503 with how to configure it, and says so in the status", async () => {
      const tenant = await triageTenant(server, "Unconfigured");
      const answer = await askAgent(tenant.session, tenant.project.id, { id: crypto.randomUUID(), message: userMessage("Hello") });
      expect(answer.status).toBe(503);
      expect(answer.body.error.message).toBe(MODEL_NOT_CONFIGURED);
      expect((await tenant.session.query("agent.status")).data).toMatchObject({ configured: false, problem: MODEL_NOT_CONFIGURED });
      expect((await tenant.session.query("conversation.list")).data).toEqual([]);
    });
  });

  describe("while an answer streams", () => {
    let server: TestServer;
    let release: () => void = () => {};
    const slowWords = Array.from({ length: 40 }, (_, index) => `word${index} `);
    const model = new MockLanguageModelV3({
      modelId: "slow",
      doStream: async () => {
        await new Promise<void>((resolve) => (release = resolve));
        const id = "t";
        return {
          stream: simulateReadableStream({
            chunkDelayInMs: 50,
            chunks: [
              { type: "stream-start", warnings: [] },
              { type: "text-start", id },
              ...slowWords.map((delta) => ({ type: "text-delta" as const, id, delta })),
              { type: "text-end", id },
              {
                type: "finish",
                finishReason: { unified: "stop", raw: "stop" },
                usage: {
                  inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
                  outputTokens: { total: 40, text: 40, reasoning: undefined },
                },
              },
            ],
          }),
        };
      },
      doGenerate: async () => ({
        content: [{ type: "text", text: "Slow" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      }),
    });
    beforeAll(async () => {
      server = await startTestServer({ outside: { modelProvider: { modelId: "slow", languageModel: () => model } } });
    });
    afterAll(() => server.close());

    it("refuses a second question in the same conversation with 409, and saves what was written when the browser goes away", async () => {
      const tenant = await triageTenant(server, "Streaming");
      const conversationId = crypto.randomUUID();
      const browser = new AbortController();
      const first = fetch(`${server.url}/api/v1/ai/agents/${tenant.project.id}/chat`, {
        method: "POST",
        signal: browser.signal,
        headers: { "content-type": "application/json", origin: server.url, cookie: tenant.session.cookieHeader() },
        body: JSON.stringify({ id: conversationId, message: userMessage("Tell me a long story") }),
      });
      await vi.waitFor(() => expect(model.doStreamCalls.length).toBe(1));
      const second = await askAgent(tenant.session, tenant.project.id, { id: conversationId, message: userMessage("Hurry up") });
      expect(second.status).toBe(409);
      expect(second.body.error.message).toMatch(/already being written/);

      release();
      const response = await first;
      const reader = response.body!.getReader();
      let received = "";
      while (!received.includes("word3")) received += new TextDecoder().decode((await reader.read()).value);
      browser.abort();

      // The answer so far is saved and the conversation is free again.
      await vi.waitFor(
        async () => {
          const { data } = await tenant.session.query("conversation.get", { id: conversationId });
          expect(data.messages.map((message: { role: string }) => message.role)).toEqual(["user", "assistant"]);
          expect(JSON.stringify(data.messages[1].parts)).toContain("word0");
        },
        { timeout: 10_000, interval: 200 },
      );
      model.doStreamCalls.length = 0;
      const after = askAgent(tenant.session, tenant.project.id, { id: conversationId, message: userMessage("Again") });
      await vi.waitFor(() => expect(model.doStreamCalls.length).toBe(1));
      release();
      expect((await after).status).toBe(200);
    });
  });
});
