/**
 * A language model scripted turn by turn, for the agent loop tests: the AI SDK's own
 * MockLanguageModelV3 (ai/test) fed with the stream parts a provider package would emit. Each turn
 * sees the prompt it was called with, so a test can answer from earlier tool results.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";

export type Turn = (options: LanguageModelV3CallOptions, index: number) => LanguageModelV3StreamPart[] | Promise<LanguageModelV3StreamPart[]>;

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

export const TURN_USAGE = { input: 100, output: 20 };

export function toolCalls(...calls: { name: string; input: unknown }[]): LanguageModelV3StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    ...calls.map((call, index): LanguageModelV3StreamPart => ({
      type: "tool-call",
      toolCallId: `call-${crypto.randomUUID()}-${index}`,
      toolName: call.name,
      input: JSON.stringify(call.input),
    })),
    { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: usage(TURN_USAGE.input, TURN_USAGE.output) },
  ];
}

export function text(answer: string): LanguageModelV3StreamPart[] {
  const id = crypto.randomUUID();
  const words = answer.split(/(?<= )/);
  return [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id },
    ...words.map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id, delta })),
    { type: "text-end", id },
    { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: usage(TURN_USAGE.input, TURN_USAGE.output) },
  ];
}

/** A model that plays `turns` in order (the last one repeats) and titles conversations with `title`. */
export function scriptedModel(turns: Turn[], title = "Scripted title") {
  let calls = 0;
  const model = new MockLanguageModelV3({
    modelId: "scripted",
    doStream: async (options) => {
      const index = calls++;
      const turn = turns[Math.min(index, turns.length - 1)];
      return { stream: simulateReadableStream({ chunks: await turn(options, index), chunkDelayInMs: 1 }) };
    },
    doGenerate: async () => ({
      content: [{ type: "text", text: title }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: usage(10, 3),
      warnings: [],
    }),
  });
  return model;
}

/** The JSON of every tool result the model was shown in one call's prompt. */
export function toolResultsIn(options: LanguageModelV3CallOptions): string {
  return JSON.stringify(options.prompt.filter((message) => message.role === "tool"));
}

/** A ModelProvider slot for createApp that always answers with `model`. */
export const providerOf = (model: MockLanguageModelV3) => ({ modelId: model.modelId, languageModel: () => model });
