import { APICallError, RetryError } from "ai";
import { AgentToolError } from "../agent/ai-sdk-tools";

/**
 * What the chat shows when an answer fails. Provider messages are never shown verbatim (they can
 * echo prompt text or account details); the status says enough to act on.
 */
export function chatErrorMessage(error: unknown): string {
  if (error instanceof AgentToolError) return error.message;
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(cause)) {
    if (cause.statusCode === 429) return "The model provider is rate limiting requests. Try again in a moment.";
    if (cause.statusCode === 401 || cause.statusCode === 403) return "The model provider refused the credentials Faultline is configured with.";
    if (cause.statusCode) return `The model provider answered with an error (HTTP ${cause.statusCode}). Try again.`;
    return "The model provider could not be reached. Try again.";
  }
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) return "The model provider took too long to answer. Try again.";
  return "The model's answer could not be read. Try again.";
}
