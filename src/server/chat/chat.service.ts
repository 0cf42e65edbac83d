import { convertToModelMessages, createUIMessageStream, safeValidateUIMessages, stepCountIs, streamText, type UIMessage, type UIMessageChunk } from "ai";
import { DEFAULT_CHAT_TITLE, type ChatRequestInput } from "../../shared/chat.inputs";
import { agentToolSet } from "../agent/ai-sdk-tools";
import type { AgentScope } from "../agent/tools/agent-scope";
import type { RequestContext } from "../context";
import { AppError, notFound } from "../errors";
import type { OrgScope } from "../organizations/org-scope";
import { requireProject } from "../projects/project-scope";
import { requireAgentPlan } from "./agent-plan";
import { generateChatTitle } from "./chat-title";
import {
  acquireAnswerLease,
  claimConversation,
  releaseAnswerLease,
  saveMessage,
  selectConversation,
  selectMessages,
  setGeneratedTitle,
} from "./conversation.queries";
import { toConversationMessage } from "./conversation.service";
import { applyApprovals, expireUnansweredApprovals, pruneHistory, storableParts } from "./message-history";
import { MODEL_NOT_CONFIGURED, modelConfigurationProblem } from "./model-provider";
import { chatErrorMessage } from "./provider-errors";
import { systemPrompt } from "./system-prompt.v1";
import { addTokenUsage, tokensUsedOn } from "./token-usage.queries";

/** Longer than any answer should take; a lease left by a dead process frees itself after this. */
export const ANSWER_LEASE_MS = 5 * 60_000;

export type ChatContext = RequestContext & { org: OrgScope };

async function requireBudgetLeft(ctx: ChatContext) {
  const budget = ctx.env.AI_DAILY_TOKEN_BUDGET;
  if (budget === 0) return;
  const used = await tokensUsedOn(ctx.db, ctx.org.organizationId);
  if (used >= budget)
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `Your organization has used its daily AI token budget (${used.toLocaleString("en")} of ${budget.toLocaleString("en")} tokens). It resets at midnight UTC.`,
      { reason: "token_budget_exhausted", budget, used },
    );
}

/** The caller's conversation with this id in this project, created by a first question; anyone else's is NOT_FOUND. */
async function conversationFor(ctx: ChatContext, projectId: string, input: ChatRequestInput) {
  const { organizationId, userId } = ctx.org;
  const existing = await selectConversation(ctx.db, organizationId, userId, input.id);
  const conversation =
    existing ??
    (input.message.role === "user"
      ? await claimConversation(ctx.db, {
          id: input.id,
          organizationId,
          projectId,
          ownerUserId: userId,
          title: DEFAULT_CHAT_TITLE,
          dateFrom: input.dateFrom ?? null,
          dateTo: input.dateTo ?? null,
        })
      : null);
  if (!conversation || conversation.projectId !== projectId) throw notFound("Conversation");
  return { conversation, isNew: !existing };
}

/** The stored history with the new message: a new question appended, or the pending answer with the user's decisions. */
async function historyWith(ctx: ChatContext, conversationId: string, message: ChatRequestInput["message"]): Promise<UIMessage[]> {
  const rows = await selectMessages(ctx.db, ctx.org.organizationId, conversationId);
  const stored = rows.map(toConversationMessage).map(({ id, role, parts }) => ({ id, role, parts }) as UIMessage);
  if (message.role === "user") {
    // A retry (the browser's Retry after a failed answer) re-sends the question that has no answer yet.
    if (stored.at(-1)?.id === message.id && stored.at(-1)?.role === "user") return stored;
    if (stored.some((previous) => previous.id === message.id)) throw new AppError("BAD_REQUEST", "This message was already sent");
    for (const expired of expireUnansweredApprovals(stored))
      await saveMessage(ctx.db, ctx.org.organizationId, conversationId, { messageId: expired.id, role: expired.role, parts: expired.parts });
    return [...stored, { id: message.id, role: "user", parts: message.parts.map((part) => ({ type: "text", text: part.text })) }];
  }
  const last = stored.at(-1);
  if (!last || last.role !== "assistant" || last.id !== message.id) throw new AppError("BAD_REQUEST", "The message answers no pending tool approval");
  return [...stored.slice(0, -1), applyApprovals(last, message)];
}

/**
 * Everything before the first byte of an answer: plan, provider, project, conversation, budget and
 * the one-answer-at-a-time lease, each refused as an ordinary REST error. Then the answer streams
 * as an AI SDK UI message stream, and is saved when it ends — also when the client went away.
 */
export async function startChatAnswer(
  ctx: ChatContext,
  projectId: string,
  input: ChatRequestInput,
  abortSignal: AbortSignal,
): Promise<ReadableStream<UIMessageChunk>> {
  const { organizationId } = ctx.org;
  await requireAgentPlan(ctx, organizationId);
  const project = await requireProject(ctx, projectId);
  const provider = ctx.modelProvider;
  if (!provider) throw new AppError("SERVICE_UNAVAILABLE", modelConfigurationProblem(ctx.env) ?? MODEL_NOT_CONFIGURED, { reason: "model_not_configured" });
  const { conversation, isNew } = await conversationFor(ctx, projectId, input);
  await requireBudgetLeft(ctx);
  if (!(await acquireAnswerLease(ctx.db, organizationId, conversation.id, ANSWER_LEASE_MS)))
    throw new AppError("CONFLICT", "An answer is already being written in this conversation. Wait for it, or stop it, before sending another message.");

  try {
    const history = await historyWith(ctx, conversation.id, input.message);
    const validated = await safeValidateUIMessages({ messages: history });
    if (!validated.success) throw new AppError("BAD_REQUEST", "The conversation's messages could not be read");
    // The question is kept whatever happens to the answer (provider down, client gone).
    if (input.message.role === "user")
      await saveMessage(ctx.db, organizationId, conversation.id, { messageId: input.message.id, role: "user", parts: history.at(-1)!.parts });

    const window = conversation.dateFrom && conversation.dateTo ? { from: conversation.dateFrom, to: conversation.dateTo } : undefined;
    const scope: AgentScope = { db: ctx.db, organizationId, projectId, userId: ctx.org.userId, role: ctx.org.role, window };
    const tools = agentToolSet(scope, ctx.logger);
    const model = provider.languageModel(provider.modelId);
    const messages = await convertToModelMessages(pruneHistory(history, ctx.env.AI_CONTEXT_TOKENS), { tools, ignoreIncompleteToolCalls: true });
    const usage = { inputTokens: 0, outputTokens: 0 };
    const question = input.message.role === "user" ? input.message.parts.map((part) => part.text).join("\n") : "";

    return createUIMessageStream<UIMessage>({
      originalMessages: history,
      generateId: () => crypto.randomUUID(),
      onError: chatErrorMessage,
      execute: ({ writer }) => {
        const result = streamText({
          model,
          system: systemPrompt({
            projectName: project.name,
            projectId,
            platform: project.platform,
            window: window ?? null,
            now: new Date(),
            maxToolSteps: ctx.env.AI_MAX_TOOL_STEPS,
          }),
          messages,
          tools,
          stopWhen: stepCountIs(ctx.env.AI_MAX_TOOL_STEPS),
          abortSignal,
          maxRetries: 1,
          onStepFinish: async (step) => {
            const stepInput = step.usage.inputTokens ?? 0;
            const stepOutput = step.usage.outputTokens ?? 0;
            usage.inputTokens += stepInput;
            usage.outputTokens += stepOutput;
            if (stepInput + stepOutput > 0) await addTokenUsage(ctx.db, organizationId, stepInput, stepOutput);
          },
          onError: ({ error }) => ctx.logger.warn("chat answer failed", { requestId: ctx.requestId, conversationId: conversation.id, err: error }),
        });
        writer.merge(
          result.toUIMessageStream({
            sendReasoning: true,
            onError: chatErrorMessage,
            messageMetadata: ({ part }) =>
              part.type === "finish"
                ? { inputTokens: part.totalUsage.inputTokens ?? null, outputTokens: part.totalUsage.outputTokens ?? null, modelId: provider.modelId }
                : undefined,
          }),
        );
      },
      onFinish: async ({ responseMessage }) => {
        try {
          const parts = storableParts(responseMessage.parts);
          if (parts.some((part) => part.type !== "step-start"))
            await saveMessage(ctx.db, organizationId, conversation.id, {
              messageId: responseMessage.id,
              role: "assistant",
              parts,
              ...usage,
              modelId: provider.modelId,
            });
          if (isNew && question) {
            const titled = await generateChatTitle(model, question);
            if (titled.inputTokens + titled.outputTokens > 0) await addTokenUsage(ctx.db, organizationId, titled.inputTokens, titled.outputTokens);
            if (titled.title !== DEFAULT_CHAT_TITLE) await setGeneratedTitle(ctx.db, organizationId, conversation.id, DEFAULT_CHAT_TITLE, titled.title);
          }
        } catch (error) {
          ctx.logger.error("saving a chat answer failed", { requestId: ctx.requestId, conversationId: conversation.id, err: error });
        } finally {
          await releaseAnswerLease(ctx.db, organizationId, conversation.id);
        }
      },
    });
  } catch (error) {
    await releaseAnswerLease(ctx.db, organizationId, conversation.id);
    throw error;
  }
}
