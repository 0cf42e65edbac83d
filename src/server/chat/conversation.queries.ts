import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { conversationMessages, conversations } from "../db/schema/index";

// Every statement filters on organization_id AND the owner: a conversation id alone never reaches a row.

const ownedBy = (organizationId: string, userId: string, id: string) =>
  and(eq(conversations.organizationId, organizationId), eq(conversations.ownerUserId, userId), eq(conversations.id, id));

export const conversationColumns = {
  id: conversations.id,
  projectId: conversations.projectId,
  title: conversations.title,
  dateFrom: conversations.dateFrom,
  dateTo: conversations.dateTo,
  createdAt: conversations.createdAt,
  updatedAt: conversations.updatedAt,
};

export function selectConversations(db: Db, organizationId: string, userId: string) {
  return db
    .select(conversationColumns)
    .from(conversations)
    .where(and(eq(conversations.organizationId, organizationId), eq(conversations.ownerUserId, userId)))
    .orderBy(desc(conversations.updatedAt), desc(conversations.id));
}

export async function selectConversation(db: Db, organizationId: string, userId: string, id: string) {
  const [row] = await db
    .select(conversationColumns)
    .from(conversations)
    .where(ownedBy(organizationId, userId, id))
    .limit(1);
  return row ?? null;
}

export async function renameConversationRow(db: Db, organizationId: string, userId: string, id: string, title: string) {
  const [row] = await db
    .update(conversations)
    .set({ title, updatedAt: new Date() })
    .where(ownedBy(organizationId, userId, id))
    .returning(conversationColumns);
  return row ?? null;
}

export async function deleteConversationRow(db: Db, organizationId: string, userId: string, id: string) {
  const rows = await db
    .delete(conversations)
    .where(ownedBy(organizationId, userId, id))
    .returning({ id: conversations.id });
  return rows.length > 0;
}

export function selectMessages(db: Db, organizationId: string, conversationId: string) {
  return db
    .select()
    .from(conversationMessages)
    .where(and(eq(conversationMessages.organizationId, organizationId), eq(conversationMessages.conversationId, conversationId)))
    .orderBy(asc(conversationMessages.position));
}

export type MessageRow = Awaited<ReturnType<typeof selectMessages>>[number];

export interface StoredMessage {
  messageId: string;
  role: string;
  parts: unknown[];
  inputTokens?: number | null;
  outputTokens?: number | null;
  modelId?: string | null;
}

/** Appends a message, or replaces the parts of the same message id (an answer continued after an approval). */
export async function saveMessage(db: Db, organizationId: string, conversationId: string, message: StoredMessage) {
  const position = sql`(select coalesce(max(${conversationMessages.position}), -1) + 1 from ${conversationMessages} where ${conversationMessages.conversationId} = ${conversationId})`;
  await db
    .insert(conversationMessages)
    .values({ organizationId, conversationId, position, ...message })
    .onConflictDoUpdate({
      target: [conversationMessages.conversationId, conversationMessages.messageId],
      set: {
        parts: sql`excluded.parts`,
        inputTokens: sql`coalesce(${conversationMessages.inputTokens}, 0) + coalesce(excluded.input_tokens, 0)`,
        outputTokens: sql`coalesce(${conversationMessages.outputTokens}, 0) + coalesce(excluded.output_tokens, 0)`,
        modelId: sql`coalesce(excluded.model_id, ${conversationMessages.modelId})`,
      },
    });
}
