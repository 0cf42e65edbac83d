/**
 * What the chat needs of a language model before the AI SDK is installed: the identifying fields
 * every AI SDK `LanguageModel` object (LanguageModelV2/V3) has. When `ai` lands, the chat feature
 * replaces this with `import type { LanguageModel } from "ai"`; nothing else here changes.
 */
export interface LanguageModelHandle {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
}

/**
 * The model provider chosen by AI_PROVIDER (built once in main.ts/createApp, passed down).
 *
 * Contract:
 * - `languageModel(modelId)` returns the AI SDK model object for that id, ready for `streamText`.
 *   It makes no network call: an unknown id or bad credentials surface when the model is called.
 * - The chat maps failures of those calls to AppError BAD_GATEWAY (the provider answered with an
 *   error) or SERVICE_UNAVAILABLE (unreachable, rate limited); provider messages are not shown
 *   verbatim, they can echo prompt text.
 * - Tests drive the real provider package against a wire-level stand-in on loopback, never a
 *   hand-written object pretending to be a model.
 */
export interface ModelProvider {
  languageModel(modelId: string): LanguageModelHandle;
}
