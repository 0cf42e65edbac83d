import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organization, user } from "./auth";
import { jsonText } from "./json-text";
import { projects } from "./projects";

/**
 * A chat with the AI agent about one project, owned by the user who started it. Its id is chosen
 * by the client (the AI SDK's chat id) and claimed by the first message; another user's or
 * organization's id is never overwritten (chat/conversation.queries.ts).
 */
export const conversations = pgTable(
  "conversations",
  {
    id: uuid("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    ownerUserId: text("owner_user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    dateFrom: timestamp("date_from", { withTimezone: true }),
    dateTo: timestamp("date_to", { withTimezone: true }),
    /** Set while an answer streams: one answer per conversation at a time, across replicas. */
    answeringUntil: timestamp("answering_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("conversations_org_owner_updated_idx").on(t.organizationId, t.ownerUserId, t.updatedAt.desc())],
);

/** One UIMessage of a conversation, as the AI SDK's parts; assistant messages carry the usage of their answer. */
export const conversationMessages = pgTable(
  "conversation_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id").notNull(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** The UIMessage id (client-generated for user messages, server-generated for answers). */
    messageId: text("message_id").notNull(),
    /** Order within the conversation. */
    position: integer("position").notNull(),
    role: text("role").notNull(),
    parts: jsonText("parts").notNull(),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    modelId: text("model_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("conversation_messages_conversation_message_idx").on(t.conversationId, t.messageId),
    index("conversation_messages_conversation_position_idx").on(t.conversationId, t.position),
  ],
);

/** Tokens the organization's agent used per UTC day, as the provider reported them (the daily budget). */
export const aiTokenUsage = pgTable(
  "ai_token_usage",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    day: date("day").notNull(),
    inputTokens: bigint("input_tokens", { mode: "number" }).notNull().default(0),
    outputTokens: bigint("output_tokens", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day] })],
);

/**
 * Tokens held back from the organization's daily budget for an answer being written, so parallel
 * answers cannot all pass the budget check before any of them has reported its usage
 * (chat/token-budget.queries.ts). Deleted when the answer's usage is written; one whose process
 * died stops counting at `expires_at`.
 */
export const aiTokenReservations = pgTable(
  "ai_token_reservations",
  {
    id: uuid("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    tokens: bigint("tokens", { mode: "number" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("ai_token_reservations_org_expires_idx").on(t.organizationId, t.expiresAt)],
);
