import { z } from "zod";
import { IsoDateTime } from "./date.inputs";
import { boundedText } from "./text.inputs";

/** A question longer than this is a paste of logs; the agent can read events itself. */
export const MAX_QUESTION_LENGTH = 8_000;
export const MAX_TITLE_LENGTH = 120;
export const DEFAULT_CHAT_TITLE = "New chat";

export const ConversationIdInput = z.object({ id: z.uuid("Invalid conversation id") });
export type ConversationIdInput = z.infer<typeof ConversationIdInput>;

export const RenameConversationInput = ConversationIdInput.extend({
  title: boundedText(MAX_TITLE_LENGTH, `The title must be at most ${MAX_TITLE_LENGTH} characters`, { length: 1, message: "The title must not be empty" }),
});
export type RenameConversationInput = z.infer<typeof RenameConversationInput>;

const messageId = z.string().min(1, "Invalid message id").max(100, "Invalid message id");

/** A question: text parts only (no files, no tool results — those are the server's to write). */
const UserMessageInput = z.object({
  id: messageId,
  role: z.literal("user"),
  parts: z
    .array(z.object({ type: z.literal("text"), text: boundedText(MAX_QUESTION_LENGTH, `A message is at most ${MAX_QUESTION_LENGTH} characters`) }))
    .min(1, "A message needs text")
    .max(10),
});

/**
 * The client's copy of the last answer after the user approved or denied its tool calls. Only the
 * decisions are read from it (chat/approvals.ts); everything else comes from the stored answer.
 */
const ApprovalMessageInput = z.object({
  id: messageId,
  role: z.literal("assistant"),
  parts: z
    .array(
      z.looseObject({
        type: z.string().max(100),
        toolCallId: z.string().max(200).optional(),
        state: z.string().max(50).optional(),
        approval: z.object({ id: z.string().max(200), approved: z.boolean().optional(), reason: z.string().max(500).optional() }).optional(),
      }),
    )
    .max(200),
});

export const ChatMessageInput = z.discriminatedUnion("role", [UserMessageInput, ApprovalMessageInput]);
export type ChatMessageInput = z.infer<typeof ChatMessageInput>;

/** The body of POST /api/v1/ai/agents/{projectId}/chat: the new message only; the server holds the history. */
export const ChatRequestInput = z
  .object({
    id: z.uuid("Invalid conversation id"),
    message: ChatMessageInput,
    dateFrom: IsoDateTime.optional(),
    dateTo: IsoDateTime.optional(),
  })
  .refine((input) => !input.dateFrom || !input.dateTo || input.dateFrom <= input.dateTo, { message: "dateFrom must not be after dateTo", path: ["dateFrom"] });
export type ChatRequestInput = z.infer<typeof ChatRequestInput>;
