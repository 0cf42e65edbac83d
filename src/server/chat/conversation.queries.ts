import { and, asc, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
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

export interface NewConversation {
  id: string;
  organizationId: string;
  projectId: string;
  ownerUserId: string;
  title: string;
  dateFrom: Date | null;
  dateTo: Date | null;
}

/**
 * Creates the conversation unless its id exists, then answers it only if it is the caller's.
 * ON CONFLICT DO NOTHING is the race guard: two first messages with one id create one row, and an
 * id another user or organization already holds is neither overwritten nor re-owned (null).
 */
export async function claimConversation(db: Db, row: NewConversation) {
  await db.insert(conversations).values(row).onConflictDoNothing({ target: conversations.id });
  return selectConversation(db, row.organizationId, row.ownerUserId, row.id);
}

export async function renameConversationRow(db: Db, organizationId: string, userId: string, id: string, title: string) {
  const [row] = await db
    .update(conversations)
    .set({ title, updatedAt: new Date() })
    .where(ownedBy(organizationId, userId, id))
    .returning(conversationColumns);
  return row ?? null;
}

/** Sets the generated title only while the conversation still has the default one (a rename wins). */
export async function setGeneratedTitle(db: Db, organizationId: string, id: string, defaultTitle: string, title: string) {
  await db
    .update(conversations)
    .set({ title })
    .where(and(eq(conversations.organizationId, organizationId), eq(conversations.id, id), eq(conversations.title, defaultTitle)));
}

export async function deleteConversationRow(db: Db, organizationId: string, userId: string, id: string) {
  const rows = await db
    .delete(conversations)
    .where(ownedBy(organizationId, userId, id))
    .returning({ id: conversations.id });
  return rows.length > 0;
}

/**
 * Takes the conversation's answer lease (one streaming answer at a time, across replicas): a
 * compare-and-set on `answering_until`, so of two concurrent requests exactly one gets the row.
 * The lease expires by itself should a process die mid-answer.
 */
export async function acquireAnswerLease(db: Db, organizationId: string, id: string, leaseMs: number) {
  const now = new Date();
  const rows = await db
    .update(conversations)
    .set({ answeringUntil: new Date(now.getTime() + leaseMs), updatedAt: now })
    .where(
      and(
        eq(conversations.organizationId, organizationId),
        eq(conversations.id, id),
        or(isNull(conversations.answeringUntil), lt(conversations.answeringUntil, now)),
      ),
    )
    .returning({ id: conversations.id });
  return rows.length > 0;
}

export async function releaseAnswerLease(db: Db, organizationId: string, id: string) {
  await db
    .update(conversations)
    .set({ answeringUntil: null, updatedAt: new Date() })
    .where(and(eq(conversations.organizationId, organizationId), eq(conversations.id, id)));
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
