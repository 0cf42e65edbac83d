import { ChatRequestInput, ConversationIdInput, RenameConversationInput } from "../../shared/chat.inputs";
import { ConversationDetail, ConversationListItem, DeletedConversation } from "../../shared/chat.views";
import { ProjectScope } from "../../shared/triage.inputs";
import { ChatStreamChunk, ConversationList } from "../rest/openapi-views";
import { bodyOf } from "../rest/input";
import type { RestRoute } from "../rest/rest-route";
import * as service from "./conversation.service";

const AGENTS = "/ai/agents";
const CONVERSATION = `${AGENTS}/conversations/:id`;
const KEEP_ALIVE_MS = 15_000;
const tag = "AI agent";

/** The spec's conversation calls (§7) and the chat's streaming endpoint (issue 15), all in the session's active organization. */
export const chatRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: `${AGENTS}/conversations`,
    summary: "The caller's conversations with the AI agent in the active organization, newest first",
    tag,
    output: ConversationList,
    response: "Array of conversations",
    access: "activeOrganization",
    handler: (ctx) => service.listConversations(ctx),
  },
  {
    method: "get",
    path: CONVERSATION,
    summary: "One of the caller's conversations with its messages (AI SDK UIMessages)",
    tag,
    input: ConversationIdInput,
    output: ConversationDetail,
    response: "The conversation with its projectId, window, title and messages",
    access: "activeOrganization",
    handler: (ctx, req) => service.getConversation(ctx, ConversationIdInput.parse(req.params)),
  },
  {
    method: "patch",
    path: CONVERSATION,
    summary: "Rename a conversation",
    tag,
    input: RenameConversationInput,
    output: ConversationListItem,
    response: "The renamed conversation",
    access: "activeOrganization",
    handler: (ctx, req) => service.renameConversation(ctx, RenameConversationInput.parse(bodyOf(req))),
  },
  {
    method: "delete",
    path: CONVERSATION,
    summary: "Delete a conversation and its messages",
    tag,
    input: ConversationIdInput,
    output: DeletedConversation,
    response: "The deleted conversation's id",
    access: "activeOrganization",
    handler: (ctx, req) => service.deleteConversation(ctx, ConversationIdInput.parse(req.params)),
  },
  {
    method: "post",
    path: `${AGENTS}/:projectId/chat`,
    summary:
      "Ask the AI agent: send the new message only (the server keeps the history). A new conversation id creates the conversation. Needs the plus plan on the hosted deployment (403, details.reason plan_required); 503 while no model provider is configured; 429 over the daily token budget; 409 while another answer streams.",
    tag,
    input: ChatRequestInput,
    output: ChatStreamChunk,
    mediaType: "text/event-stream",
    response: "The answer as the AI SDK UI message stream (SSE, header x-vercel-ai-ui-message-stream: v1), one JSON chunk per data line",
    access: "activeOrganization",
    // The one streaming route (docs/architecture.md): errors before the first byte are ordinary REST
    // errors through the same mapper; after it, error parts inside the stream.
    stream: async (ctx, req, res) => {
      const { projectId } = ProjectScope.parse(req.params);
      const input = ChatRequestInput.parse(req.body);
      // Stop in the browser (or a lost connection) stops the model; what was written is still saved.
      const abort = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) abort.abort();
      });
      const [{ startChatAnswer }, { writeUiMessageStream }] = await answering();
      const stream = await startChatAnswer(ctx, projectId, input, abort.signal);
      // Read to its end even when the client left, so onFinish saves what was written.
      await writeUiMessageStream(res, stream, KEEP_ALIVE_MS);
    },
  },
];

/** The AI SDK and the agent's tools load with the first answer, not at start-up (main.ts says why). */
const answering = () => Promise.all([import("./chat.service"), import("./ui-message-sse")]);
