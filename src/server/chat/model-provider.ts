import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { Env } from "../env";

/**
 * The model provider chosen by AI_PROVIDER (built once in main.ts, passed to createApp).
 *
 * Contract:
 * - `languageModel(modelId)` returns the AI SDK model object for that id, ready for `streamText`.
 *   Always an instance: a bare model string would make the AI SDK route the call to a hosted
 *   gateway. It makes no network call: an unknown id or bad credentials surface when the model is called.
 * - The chat maps failures of those calls to a generic message in the stream (chat/provider-errors.ts);
 *   provider messages are not shown verbatim, they can echo prompt text.
 * - Tests drive the real provider package against a wire-level stand-in on loopback, never a
 *   hand-written object pretending to be a model.
 */
export interface ModelProvider {
  /** AI_MODEL: the model every answer uses. */
  readonly modelId: string;
  languageModel(modelId: string): LanguageModelV3;
}

type ProviderEnv = Pick<
  Env,
  "AI_PROVIDER" | "AI_MODEL" | "AI_BASE_URL" | "AI_API_KEY" | "OPENAI_API_KEY" | "OPENAI_BASE_URL" | "ANTHROPIC_API_KEY" | "ANTHROPIC_BASE_URL"
>;

/** What the chat screens and the 503 of the chat endpoint say while no provider is configured. */
export const MODEL_NOT_CONFIGURED =
  "The AI agent is not configured. Set AI_PROVIDER (openai, anthropic or openai-compatible) and AI_MODEL, plus OPENAI_API_KEY, ANTHROPIC_API_KEY, or AI_BASE_URL for an OpenAI-compatible server such as Ollama (http://127.0.0.1:11434/v1), then restart Faultline.";

/** Why the configuration cannot build a provider, or null when it can. */
export function modelConfigurationProblem(env: ProviderEnv): string | null {
  if (!env.AI_PROVIDER || !env.AI_MODEL) return MODEL_NOT_CONFIGURED;
  if (env.AI_PROVIDER === "openai" && !env.OPENAI_API_KEY) return `${MODEL_NOT_CONFIGURED} (AI_PROVIDER=openai needs OPENAI_API_KEY.)`;
  if (env.AI_PROVIDER === "anthropic" && !env.ANTHROPIC_API_KEY) return `${MODEL_NOT_CONFIGURED} (AI_PROVIDER=anthropic needs ANTHROPIC_API_KEY.)`;
  if (env.AI_PROVIDER === "openai-compatible" && !env.AI_BASE_URL) return `${MODEL_NOT_CONFIGURED} (AI_PROVIDER=openai-compatible needs AI_BASE_URL.)`;
  return null;
}

/** The configured provider, or undefined when the agent is not configured (the chat then answers 503). */
export function createModelProvider(env: ProviderEnv): ModelProvider | undefined {
  if (modelConfigurationProblem(env)) return undefined;
  const modelId = env.AI_MODEL!;
  const build = modelFactory(env);
  if (!build) return undefined;
  // One instance per model id: a model object holds only its configuration, and building one is
  // not free (the OpenAI-compatible model compiles its stream chunk schema: ~0.5 ms per answer).
  const models = new Map<string, LanguageModelV3>();
  return {
    modelId,
    languageModel: (id) => {
      let model = models.get(id);
      if (!model) models.set(id, (model = build(id)));
      return model;
    },
  };
}

function modelFactory(env: ProviderEnv): ((id: string) => LanguageModelV3) | undefined {
  switch (env.AI_PROVIDER) {
    case "openai": {
      const openai = createOpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL });
      return (id) => openai(id);
    }
    case "anthropic": {
      const anthropic = createAnthropic({ apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL });
      return (id) => anthropic(id);
    }
    case "openai-compatible": {
      // includeUsage asks the server for token counts in the stream: the daily budget is counted from them.
      const compatible = createOpenAICompatible({ name: "openai-compatible", baseURL: env.AI_BASE_URL!, apiKey: env.AI_API_KEY, includeUsage: true });
      return (id) => compatible.chatModel(id);
    }
    default:
      return undefined;
  }
}
