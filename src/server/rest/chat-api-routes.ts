import { ChatRequestInput, ConversationIdInput, RenameConversationInput } from "../../shared/chat.inputs";
import { ConversationDetail, ConversationListItem, DeletedConversation } from "../../shared/chat.views";
import { ChatStreamChunk, ConversationList } from "./openapi-views";
import type { ApiRoute } from "./api-route";

/** Issue 15: the AI agent's conversations and its streamed answers. */
export const chatApiRoutes: ApiRoute[] = [
  {
    method: "get",
    path: "/ai/agents/conversations",
    summary: "The caller's conversations with the AI agent in the active organization, newest first",
    tag: "AI agent",
    output: ConversationList,
    response: "Array of conversations",
  },
  {
    method: "get",
    path: "/ai/agents/conversations/:id",
    summary: "One of the caller's conversations with its messages (AI SDK UIMessages)",
    tag: "AI agent",
    input: ConversationIdInput,
    output: ConversationDetail,
    response: "The conversation with its projectId, window, title and messages",
  },
  {
    method: "patch",
    path: "/ai/agents/conversations/:id",
    summary: "Rename a conversation",
    tag: "AI agent",
    input: RenameConversationInput,
    output: ConversationListItem,
    response: "The renamed conversation",
  },
  {
    method: "delete",
    path: "/ai/agents/conversations/:id",
    summary: "Delete a conversation and its messages",
    tag: "AI agent",
    input: ConversationIdInput,
    output: DeletedConversation,
    response: "The deleted conversation's id",
  },
  {
    method: "post",
    path: "/ai/agents/:projectId/chat",
    summary:
      "Ask the AI agent: send the new message only (the server keeps the history). A new conversation id creates the conversation. Needs the plus plan on the hosted deployment (403, details.reason plan_required); 503 while no model provider is configured; 429 over the daily token budget; 409 while another answer streams.",
    tag: "AI agent",
    input: ChatRequestInput,
    output: ChatStreamChunk,
    mediaType: "text/event-stream",
    response: "The answer as the AI SDK UI message stream (SSE, header x-vercel-ai-ui-message-stream: v1), one JSON chunk per data line",
  },
];
