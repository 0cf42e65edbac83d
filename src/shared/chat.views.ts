import { z } from "zod";
import { IsoDay } from "./date.inputs";

export const ConversationListItem = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  title: z.string(),
  dateFrom: z.date().nullable(),
  dateTo: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type ConversationListItem = z.infer<typeof ConversationListItem>;

/** A stored UIMessage (AI SDK): its parts as the stream produced them, and the answer's usage. */
export const ConversationMessage = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant", "system"]),
  parts: z.array(z.looseObject({ type: z.string() })),
  metadata: z
    .object({
      inputTokens: z.number().int().nullable(),
      outputTokens: z.number().int().nullable(),
      modelId: z.string().nullable(),
      createdAt: z.date(),
    })
    .optional(),
});
export type ConversationMessage = z.infer<typeof ConversationMessage>;

export const ConversationDetail = ConversationListItem.extend({ messages: z.array(ConversationMessage) });
export type ConversationDetail = z.infer<typeof ConversationDetail>;

export const DeletedConversation = z.object({ id: z.uuid(), deleted: z.literal(true) });

/** What the chat screens need before they can offer a chat. */
export const AgentStatus = z.object({
  configured: z.boolean(),
  /** How to configure the provider, while it is not. */
  problem: z.string().nullable(),
  modelId: z.string().nullable(),
  maxToolSteps: z.number().int(),
  dailyTokenBudget: z.number().int(),
  tokensUsedToday: z.number().int(),
});
export type AgentStatus = z.infer<typeof AgentStatus>;

export const AgentUsageDay = z.object({ day: IsoDay, inputTokens: z.number().int(), outputTokens: z.number().int() });
export const AgentUsage = z.object({ dailyTokenBudget: z.number().int(), days: z.array(AgentUsageDay) });
export type AgentUsage = z.infer<typeof AgentUsage>;
