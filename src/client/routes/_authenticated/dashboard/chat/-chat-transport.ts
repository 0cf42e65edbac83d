import { DefaultChatTransport, type UIMessage } from "ai";

/**
 * The chat endpoint takes the new message only (the server holds the history). For an answer the
 * user approved or denied, only the decisions are sent — the server reads nothing else of it — so
 * a long answer never hits the request size limit.
 */
export function chatTransport(projectId: string, window: { dateFrom?: string; dateTo?: string }) {
  return new DefaultChatTransport<UIMessage>({
    api: `/api/v1/ai/agents/${projectId}/chat`,
    credentials: "same-origin",
    prepareSendMessagesRequest: ({ id, messages }) => {
      const last = messages.at(-1)!;
      const message =
        last.role === "assistant"
          ? {
              id: last.id,
              role: "assistant",
              parts: last.parts
                .filter((part) => "approval" in part && part.approval)
                .map((part) => {
                  const tool = part as { type: string; toolCallId: string; state: string; approval: { id: string; approved?: boolean; reason?: string } };
                  return { type: tool.type, toolCallId: tool.toolCallId, state: tool.state, approval: tool.approval };
                }),
            }
          : {
              id: last.id,
              role: "user",
              parts: last.parts.filter((part) => part.type === "text").map((part) => ({ type: "text", text: (part as { text: string }).text })),
            };
      return { body: { id, message, ...window } };
    },
  });
}

/** The server's error answer (JSON before the stream) as the message to show. */
export function chatErrorText(error: Error): { message: string; planRequired: boolean } {
  try {
    const body = JSON.parse(error.message) as { error?: { message?: string; details?: { reason?: string } } };
    if (body.error?.message) return { message: body.error.message, planRequired: body.error.details?.reason === "plan_required" };
  } catch {
    // a stream error part: already a sentence
  }
  return { message: error.message || "The answer failed.", planRequired: false };
}
