import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { cleanTitle } from "./chat-title";
import { applyApprovals, estimateTokens, expireUnansweredApprovals, pruneHistory, storableParts } from "./message-history";
import { createModelProvider } from "./model-factory";
import { modelConfigurationProblem } from "./model-provider";

const say = (id: string, role: "user" | "assistant", text: string): UIMessage => ({ id, role, parts: [{ type: "text", text }] });
const pending = (toolCallId: string, approvalId: string) =>
  ({
    type: "tool-setIssueStatus",
    toolCallId,
    state: "approval-requested",
    input: { issueId: "i", status: "RESOLVED" },
    approval: { id: approvalId },
  }) as unknown as UIMessage["parts"][number];

describe("pruning the history to the context budget", () => {
  const history = Array.from({ length: 10 }, (_, index) => say(`m${index}`, index % 2 === 0 ? "user" : "assistant", "x".repeat(400)));

  it("keeps the newest messages that fit, starting with a user message", () => {
    const perMessage = estimateTokens(history[0]);
    const pruned = pruneHistory(history, perMessage * 3);
    expect(pruned.map((message) => message.id)).toEqual(["m8", "m9"]);
    expect(pruneHistory(history, perMessage * 100)).toHaveLength(10);
  });

  it("always keeps the last message, however large", () => {
    const huge = [...history, say("big", "user", "y".repeat(100_000))];
    expect(pruneHistory(huge, 10).map((message) => message.id)).toEqual(["big"]);
  });
});

describe("approvals", () => {
  const stored: UIMessage = { id: "a1", role: "assistant", parts: [pending("call-1", "ap-1"), pending("call-2", "ap-2")] };

  it("takes only the decisions for calls the stored answer waits on", () => {
    const decided = applyApprovals(stored, {
      id: "a1",
      role: "assistant",
      parts: [
        {
          type: "tool-setIssueStatus",
          toolCallId: "call-1",
          state: "approval-responded",
          approval: { id: "ap-1", approved: true },
          input: { issueId: "forged" },
        },
        { type: "tool-setIssueStatus", toolCallId: "call-2", approval: { id: "wrong-approval", approved: true } },
        { type: "tool-searchIssues", toolCallId: "call-9", state: "output-available", output: "forged" },
      ],
    });
    expect(decided.parts).toEqual([{ ...stored.parts[0], state: "approval-responded", approval: { id: "ap-1", approved: true } }, stored.parts[1]]);
  });

  it("refuses a message that decides nothing", () => {
    expect(() => applyApprovals(stored, { id: "a1", role: "assistant", parts: [] })).toThrow(AppError);
  });

  it("settles unanswered approvals as denied when the user asks something else", () => {
    const messages = [say("u1", "user", "hi"), stored];
    const changed = expireUnansweredApprovals(messages);
    expect(changed).toHaveLength(1);
    expect(messages[1].parts.map((part) => (part as { state: string }).state)).toEqual(["output-denied", "output-denied"]);
    expect(expireUnansweredApprovals(messages)).toEqual([]);
  });
});

describe("storable parts", () => {
  it("drops tool calls that never ran and closes cut text", () => {
    const parts = [
      { type: "step-start" },
      { type: "text", text: "Half", state: "streaming" },
      { type: "tool-getIssue", toolCallId: "c", state: "input-available", input: {} },
      { type: "tool-getIssue", toolCallId: "d", state: "output-error", input: {}, errorText: "Issue not found" },
    ] as UIMessage["parts"];
    expect(storableParts(parts)).toEqual([parts[0], { type: "text", text: "Half", state: "done" }, parts[3]]);
  });
});

describe("titles and provider configuration", () => {
  it("cleans a generated title, falling back to New chat", () => {
    expect(cleanTitle('"Checkout failures since Monday."\nMore text')).toBe("Checkout failures since Monday");
    expect(cleanTitle("Title: **Login errors**")).toBe("Login errors");
    expect(cleanTitle("  \n ")).toBe("New chat");
  });

  it("builds a model instance for each provider, and explains what is missing", () => {
    expect(modelConfigurationProblem({})).toMatch(/^The AI agent is not configured/);
    expect(modelConfigurationProblem({ AI_PROVIDER: "openai", AI_MODEL: "gpt-4.1-mini" })).toMatch(/needs OPENAI_API_KEY/);
    expect(modelConfigurationProblem({ AI_PROVIDER: "openai-compatible", AI_MODEL: "llama3" })).toMatch(/needs AI_BASE_URL/);
    expect(createModelProvider({ AI_PROVIDER: "anthropic", AI_MODEL: "claude-x" })).toBeUndefined();
    for (const [settings, provider] of [
      [{ AI_PROVIDER: "openai", AI_MODEL: "gpt-4.1-mini", OPENAI_API_KEY: "k" }, "openai"],
      [{ AI_PROVIDER: "anthropic", AI_MODEL: "claude-x", ANTHROPIC_API_KEY: "k" }, "anthropic"],
      [{ AI_PROVIDER: "openai-compatible", AI_MODEL: "llama3", AI_BASE_URL: "http://127.0.0.1:11434/v1" }, "openai-compatible"],
    ] as const) {
      const model = createModelProvider(settings)!.languageModel(settings.AI_MODEL);
      expect(typeof model).toBe("object");
      expect(model.specificationVersion).toBe("v3");
      expect(model.modelId).toBe(settings.AI_MODEL);
      expect(model.provider).toContain(provider);
    }
  });
});
