import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { conversations } from "../db/schema/index";

// An answer opens with one statement and closes with one (bench:chat counts an answer's round
// trips): each took three or four before. Every statement filters on organization_id; the opening
// one on the owner too, so a conversation id alone never reaches a row.

export interface NewConversation {
  id: string;
  organizationId: string;
  projectId: string;
  ownerUserId: string;
  title: string;
  dateFrom: Date | null;
  dateTo: Date | null;
}

export interface OpenedConversation {
  id: string;
  projectId: string;
  title: string;
  dateFrom: Date | null;
  dateTo: Date | null;
  /** Created by this question (its history is empty, its title still to be generated). */
  isNew: boolean;
}

interface OpenedRow {
  id: string;
  project_id: string;
  title: string;
  date_from: Date | string | null;
  date_to: Date | string | null;
  is_new: boolean;
}

// postgres.js (through drizzle) answers timestamps of raw SQL as text, PGlite as Date.
const dateOf = (value: Date | string | null) => (value === null ? null : new Date(value));

/**
 * Takes the answer lease (`answering_until`) on the caller's conversation in this project, or
 * creates the conversation with the lease held and its first message, `question`, when that is
 * given (a first question under a new id). Null when neither happened: the id is another user's,
 * another organization's or another project's, or an answer is streaming (the caller tells those
 * apart).
 *
 * Races: the UPDATE reads the statement's snapshot, so it never sees the row its own INSERT
 * made, and two first questions under one id leave one creator — the other's INSERT waits, does
 * nothing, and its UPDATE cannot see the new row either. An id someone else holds is neither
 * overwritten (ON CONFLICT DO NOTHING) nor leased (the owner filter). A lease left by a dead
 * process expires at `leaseUntil`.
 */
export async function openConversationForAnswer(
  db: Db,
  row: NewConversation & { question: { messageId: string; parts: unknown[] } | null; now: Date; leaseUntil: Date },
): Promise<OpenedConversation | null> {
  const now = row.now.toISOString();
  const leaseUntil = row.leaseUntil.toISOString();
  const { question } = row;
  const [opened] = await executeRows<OpenedRow>(
    db,
    sql`with created as (
      insert into conversations (id, organization_id, project_id, owner_user_id, title, date_from, date_to, answering_until, created_at, updated_at)
      select ${row.id}::uuid, ${row.organizationId}, ${row.projectId}::uuid, ${row.ownerUserId}, ${row.title},
        ${row.dateFrom?.toISOString() ?? null}::timestamptz, ${row.dateTo?.toISOString() ?? null}::timestamptz,
        ${leaseUntil}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      where ${question !== null}::boolean
      on conflict (id) do nothing
      returning id, project_id, title, date_from, date_to, true as is_new
    ), asked as (
      insert into conversation_messages (organization_id, conversation_id, message_id, position, role, parts)
      select ${row.organizationId}, id, ${question?.messageId ?? null}::text, 0, 'user', ${question ? JSON.stringify(question.parts) : null}::text
      from created
    ), leased as (
      update conversations set answering_until = ${leaseUntil}::timestamptz, updated_at = ${now}::timestamptz
      where organization_id = ${row.organizationId} and owner_user_id = ${row.ownerUserId} and id = ${row.id}::uuid
        and project_id = ${row.projectId}::uuid and (answering_until is null or answering_until < ${now}::timestamptz)
      returning id, project_id, title, date_from, date_to, false as is_new
    )
    select * from created union all select * from leased`,
  );
  if (!opened) return null;
  return {
    id: opened.id,
    projectId: opened.project_id,
    title: opened.title,
    dateFrom: dateOf(opened.date_from),
    dateTo: dateOf(opened.date_to),
    isNew: opened.is_new,
  };
}

export interface FinishedAnswer {
  organizationId: string;
  conversationId: string;
  /** The answer's hold on the daily budget (token-budget.queries.ts), replaced by its usage; null when the budget is unlimited. */
  reservationId: string | null;
  /** The answer's message, or null when nothing of it may be stored. */
  answer: { messageId: string; parts: unknown[]; inputTokens: number; outputTokens: number; modelId: string } | null;
  /** All the model calls of this answer, the title's included: the organization's daily budget. */
  usage: { inputTokens: number; outputTokens: number; day: string };
  /** A generated title, set only while the conversation still has `defaultTitle` (a rename wins). */
  title: string | null;
  defaultTitle: string;
  now: Date;
}

/**
 * Saves the answer (or its continuation after an approval: the same message id gets the new parts
 * and adds the usage), adds the usage to the organization's day in place of the answer's
 * reservation, sets the generated title and releases the lease — one statement, so there is no
 * state in which the lease is released but the answer not saved, nor one in which the budget
 * counts both the reservation and the usage, or neither.
 */
export async function finishAnswer(db: Db, done: FinishedAnswer) {
  const { organizationId, conversationId, reservationId, answer, usage } = done;
  await db.execute(sql`with answer as (
      insert into conversation_messages (organization_id, conversation_id, message_id, position, role, parts, input_tokens, output_tokens, model_id)
      select ${organizationId}, ${conversationId}::uuid, ${answer?.messageId ?? null}::text,
        (select coalesce(max(position), -1) + 1 from conversation_messages where conversation_id = ${conversationId}::uuid),
        'assistant', ${answer ? JSON.stringify(answer.parts) : null}::text, ${answer?.inputTokens ?? 0}::integer,
        ${answer?.outputTokens ?? 0}::integer, ${answer?.modelId ?? null}::text
      where ${answer !== null}::boolean
      on conflict (conversation_id, message_id) do update set
        parts = excluded.parts,
        input_tokens = coalesce(conversation_messages.input_tokens, 0) + excluded.input_tokens,
        output_tokens = coalesce(conversation_messages.output_tokens, 0) + excluded.output_tokens,
        model_id = excluded.model_id
    ), usage as (
      insert into ai_token_usage (organization_id, day, input_tokens, output_tokens)
      select ${organizationId}, ${usage.day}::date, ${usage.inputTokens}::bigint, ${usage.outputTokens}::bigint
      where ${usage.inputTokens + usage.outputTokens > 0}::boolean
      on conflict (organization_id, day) do update set
        input_tokens = ai_token_usage.input_tokens + excluded.input_tokens,
        output_tokens = ai_token_usage.output_tokens + excluded.output_tokens
    ), settled as (
      delete from ai_token_reservations where organization_id = ${organizationId} and id = ${reservationId}::uuid
    )
    update conversations set answering_until = null, updated_at = ${done.now.toISOString()}::timestamptz,
      title = case when ${done.title}::text is not null and title = ${done.defaultTitle} then ${done.title}::text else title end
    where organization_id = ${organizationId} and id = ${conversationId}::uuid`);
}

/** Releases the lease when no answer follows (refused before the stream, or its save failed). */
export async function releaseAnswerLease(db: Db, organizationId: string, id: string) {
  await db
    .update(conversations)
    .set({ answeringUntil: null, updatedAt: new Date() })
    .where(and(eq(conversations.organizationId, organizationId), eq(conversations.id, id)));
}
