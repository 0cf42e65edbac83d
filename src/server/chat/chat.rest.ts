import { Router } from "express";
import { ChatRequestInput, ConversationIdInput, RenameConversationInput } from "../../shared/chat.inputs";
import { ProjectScope } from "../../shared/triage.inputs";
import { createRequestContext, type AppServices } from "../context";
import { activeOrganizationIdOf, resolveOrgScope } from "../organizations/org-scope";
import { activeOrgRoute } from "../rest/context";
import { bodyOf } from "../rest/input";
import * as service from "./conversation.service";

const AGENTS = "/ai/agents";
const CONVERSATION = `${AGENTS}/conversations/:id`;
const KEEP_ALIVE_MS = 15_000;

/** The spec's conversation calls (§7) and the chat's streaming endpoint, all in the session's active organization. */
export function chatRestRoutes(services: AppServices) {
  const routes = Router();
  routes.get(
    `${AGENTS}/conversations`,
    activeOrgRoute(services, (ctx) => service.listConversations(ctx)),
  );
  routes.get(
    CONVERSATION,
    activeOrgRoute(services, (ctx, req) => service.getConversation(ctx, ConversationIdInput.parse(req.params))),
  );
  routes.patch(
    CONVERSATION,
    activeOrgRoute(services, (ctx, req) => service.renameConversation(ctx, RenameConversationInput.parse(bodyOf(req)))),
  );
  routes.delete(
    CONVERSATION,
    activeOrgRoute(services, (ctx, req) => service.deleteConversation(ctx, ConversationIdInput.parse(req.params))),
  );
  // The one streaming route (docs/architecture.md): errors before the first byte are ordinary REST
  // errors through the same mapper; after it, error parts inside the stream.
  routes.post(`${AGENTS}/:projectId/chat`, async (req, res) => {
    const ctx = await createRequestContext(services, req);
    const org = await resolveOrgScope(ctx, activeOrganizationIdOf(ctx.session));
    const { projectId } = ProjectScope.parse(req.params);
    const input = ChatRequestInput.parse(req.body);
    // Stop in the browser (or a lost connection) stops the model; what was written is still saved.
    const abort = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    const [{ startChatAnswer }, { writeUiMessageStream }] = await answering();
    const stream = await startChatAnswer({ ...ctx, org }, projectId, input, abort.signal);
    // Read to its end even when the client left, so onFinish saves what was written.
    await writeUiMessageStream(res, stream, KEEP_ALIVE_MS);
  });
  return routes;
}

/** The AI SDK and the agent's tools load with the first answer, not at start-up (main.ts says why). */
const answering = () => Promise.all([import("./chat.service"), import("./ui-message-sse")]);
