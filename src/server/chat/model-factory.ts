import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { modelConfigurationProblem, type ModelProvider, type ProviderEnv } from "./model-provider";

/*
 * Apart from model-provider.ts so that the provider packages load only where a provider is
 * configured (main.ts imports this file on demand): together with the AI SDK they hold tens of
 * megabytes that a server without the agent should not carry.
 */

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
