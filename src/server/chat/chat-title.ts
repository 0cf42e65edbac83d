import { generateText, type LanguageModel } from "ai";
import { DEFAULT_CHAT_TITLE, MAX_TITLE_LENGTH } from "../../shared/chat.inputs";

const TITLE_TIMEOUT_MS = 15_000;

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
      system: "Write a title of at most six words for a conversation that starts with the user's question. Answer with the title only.",
      prompt: question.slice(0, 1_000),
      maxOutputTokens: 30,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(TITLE_TIMEOUT_MS),
    });
    return { title: cleanTitle(result.text), inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 };
  } catch {
    return { title: DEFAULT_CHAT_TITLE, inputTokens: 0, outputTokens: 0 };
  }
}
