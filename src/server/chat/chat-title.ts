import { generateText, type LanguageModel } from "ai";
import { DEFAULT_CHAT_TITLE, MAX_TITLE_LENGTH } from "../../shared/chat.inputs";

const TITLE_TIMEOUT_MS = 15_000;
const TITLE_SYSTEM = "Write a title of at most six words for a conversation that starts with the user's question. Answer with the title only.";
const TITLE_QUESTION_CHARS = 1_000;
const TITLE_OUTPUT_TOKENS = 30;

/** What the title's model call may cost, counting a token per character of its prompt (tokens are rarely shorter). */
export const titleTokensAtMost = (question: string) => TITLE_SYSTEM.length + Math.min(question.length, TITLE_QUESTION_CHARS) + TITLE_OUTPUT_TOKENS;

/** One line of at most 80 characters, without quotes or Markdown; anything else falls back. */
export function cleanTitle(text: string): string {
  const line = text
    .split("\n")
    .map((candidate) => candidate.trim())
    .find(Boolean);
  const cleaned = (line ?? "")
    .replace(/^(title:\s*)/i, "")
    .replace(/^["'`*#\s]+|["'`*\s.]+$/g, "")
    .slice(0, Math.min(80, MAX_TITLE_LENGTH))
    .trim();
  return cleaned || DEFAULT_CHAT_TITLE;
}

/** A short title for the conversation from its first question; "New chat" if the model cannot give one. */
export async function generateChatTitle(model: LanguageModel, question: string): Promise<{ title: string; inputTokens: number; outputTokens: number }> {
  try {
    const result = await generateText({
      model,
      system: TITLE_SYSTEM,
      prompt: question.slice(0, TITLE_QUESTION_CHARS),
      maxOutputTokens: TITLE_OUTPUT_TOKENS,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(TITLE_TIMEOUT_MS),
    });
    return { title: cleanTitle(result.text), inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 };
  } catch {
    return { title: DEFAULT_CHAT_TITLE, inputTokens: 0, outputTokens: 0 };
  }
}
