/** Calls the chat endpoint like the AI SDK's DefaultChatTransport does and reads the UI message stream it answers. */
import type { HttpSession } from "./http-session";

export interface ChatChunk {
  type: string;
  [key: string]: unknown;
}

export interface ChatAnswer {
  status: number;
  headers: Headers;
  /** The parsed `data:` lines of the SSE stream (empty for an error answered before the stream). */
  chunks: ChatChunk[];
  /** The text of the answer (text-delta chunks joined). */
  text: string;
  /** The JSON body of an error answered before the stream. */
  body: any;
  raw: string;
}

export const userMessage = (text: string, id: string = crypto.randomUUID()) => ({ id, role: "user" as const, parts: [{ type: "text" as const, text }] });

export function parseUiMessageStream(raw: string): ChatChunk[] {
  return raw
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => line.slice("data: ".length))
    .filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data) as ChatChunk);
}

export async function askAgent(session: HttpSession, projectId: string, body: Record<string, unknown>): Promise<ChatAnswer> {
  const response = await session.request(`/api/v1/ai/agents/${projectId}/chat`, { method: "POST", body });
  const isStream = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  const chunks = isStream ? parseUiMessageStream(response.text) : [];
  const text = chunks
    .filter((chunk) => chunk.type === "text-delta")
    .map((chunk) => chunk.delta)
    .join("");
  return { status: response.status, headers: response.headers, chunks, text, body: isStream ? null : response.body, raw: response.text };
}

/** The approval requests of an answer: what the browser shows as Approve / Deny. */
export const approvalRequests = (answer: ChatAnswer) =>
  answer.chunks.filter((chunk) => chunk.type === "tool-approval-request") as { type: string; approvalId: string; toolCallId: string }[];

/** The client's copy of the answer after the user decided: only what the server reads of it. */
export function approvalMessage(answer: ChatAnswer, approved: boolean) {
  const start = answer.chunks.find((chunk) => chunk.type === "start") as unknown as { messageId: string };
  const parts = approvalRequests(answer).map((request) => ({
    type: "tool-x",
    toolCallId: request.toolCallId,
    state: "approval-responded",
    approval: { id: request.approvalId, approved },
  }));
  return { id: start.messageId, role: "assistant" as const, parts };
}
