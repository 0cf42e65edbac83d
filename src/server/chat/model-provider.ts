import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { Env } from "../env";

/**
 * The model provider chosen by AI_PROVIDER (built once in main.ts by model-factory.ts, passed to createApp).
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

export type ProviderEnv = Pick<
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
