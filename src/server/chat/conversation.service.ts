import type { RenameConversationInput, ConversationIdInput } from "../../shared/chat.inputs";
import type { ConversationDetail, ConversationListItem, ConversationMessage } from "../../shared/chat.views";
import { notFound } from "../errors";
import type { ServiceContext } from "../context";
import { requireAgentPlan } from "./agent-plan";
import { deleteConversationRow, renameConversationRow, selectConversation, selectConversations, selectMessages, type MessageRow } from "./conversation.queries";

// The conversation calls act for the caller alone: another member's conversation is NOT_FOUND like a missing one.

export function toConversationMessage(row: MessageRow): ConversationMessage {
  return {
    id: row.messageId,
    role: row.role as ConversationMessage["role"],
    parts: row.parts as ConversationMessage["parts"],
    metadata: { inputTokens: row.inputTokens, outputTokens: row.outputTokens, modelId: row.modelId, createdAt: row.createdAt },
  };
}

export async function listConversations(ctx: ServiceContext): Promise<ConversationListItem[]> {
  await requireAgentPlan(ctx, ctx.org.organizationId);
  return selectConversations(ctx.db, ctx.org.organizationId, ctx.org.userId);
}

export async function getConversation(ctx: ServiceContext, input: ConversationIdInput): Promise<ConversationDetail> {
  await requireAgentPlan(ctx, ctx.org.organizationId);
  const conversation = await selectConversation(ctx.db, ctx.org.organizationId, ctx.org.userId, input.id);
  if (!conversation) throw notFound("Conversation");
  const messages = await selectMessages(ctx.db, ctx.org.organizationId, conversation.id);
  return { ...conversation, messages: messages.map(toConversationMessage) };
}

export async function renameConversation(ctx: ServiceContext, input: RenameConversationInput): Promise<ConversationListItem> {
  await requireAgentPlan(ctx, ctx.org.organizationId);
  const renamed = await renameConversationRow(ctx.db, ctx.org.organizationId, ctx.org.userId, input.id, input.title);
  if (!renamed) throw notFound("Conversation");
  return renamed;
}

export async function deleteConversation(ctx: ServiceContext, input: ConversationIdInput): Promise<{ id: string; deleted: true }> {
  await requireAgentPlan(ctx, ctx.org.organizationId);
  if (!(await deleteConversationRow(ctx.db, ctx.org.organizationId, ctx.org.userId, input.id))) throw notFound("Conversation");
  return { id: input.id, deleted: true };
}
