import { ConversationIdInput, RenameConversationInput } from "../../shared/chat.inputs";
import { orgProcedure, router } from "../trpc/init";
import * as service from "./conversation.service";

export const conversationRouter = router({
  list: orgProcedure.query(({ ctx }) => service.listConversations(ctx)),
  get: orgProcedure.input(ConversationIdInput).query(({ ctx, input }) => service.getConversation(ctx, input)),
  rename: orgProcedure.input(RenameConversationInput).mutation(({ ctx, input }) => service.renameConversation(ctx, input)),
  delete: orgProcedure.input(ConversationIdInput).mutation(({ ctx, input }) => service.deleteConversation(ctx, input)),
});
