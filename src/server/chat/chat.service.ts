import { convertToModelMessages, safeValidateUIMessages, stepCountIs, streamText, type UIMessage, type UIMessageChunk } from "ai";
import { DEFAULT_CHAT_TITLE, type ChatRequestInput } from "../../shared/chat.inputs";
import { agentToolSet } from "../agent/ai-sdk-tools";
import type { AgentScope } from "../agent/tools/agent-scope";
import type { ServiceContext } from "../context";
import { AppError, notFound } from "../errors";
import { requireProject } from "../projects/project-scope";
import { requireAgentPlan } from "./agent-plan";
import { answerTokenCapReached } from "./answer-token-cap";
import { generateChatTitle, titleTokensAtMost } from "./chat-title";
import { finishAnswer, openConversationForAnswer, releaseAnswerLease } from "./answer.queries";
import { saveMessage, selectConversation, selectMessages } from "./conversation.queries";
import { toConversationMessage } from "./conversation.service";
import { applyApprovals, expireUnansweredApprovals, pruneHistory, storableParts } from "./message-history";
import { MODEL_NOT_CONFIGURED, modelConfigurationProblem } from "./model-provider";
import { chatErrorMessage } from "./provider-errors";
import { systemPrompt } from "./system-prompt.v1";
import { releaseReservation, reserveAnswerTokens } from "./token-budget.queries";
import { utcToday } from "./token-usage.queries";

/** Longer than any answer should take; a lease left by a dead process frees itself after this. */
export const ANSWER_LEASE_MS = 5 * 60_000;

/**
 * Holds back this answer's cap from the organization's daily budget (token-budget.queries.ts says
 * why in one locked step), or refuses as the product always has once the budget is spent: counting
 * what the answers still being written hold. Null when the budget is unlimited.
 */
async function reserveBudget(ctx: ServiceContext, now: Date): Promise<string | null> {
  const budget = ctx.env.AI_DAILY_TOKEN_BUDGET;
  if (budget === 0) return null;
  const id = crypto.randomUUID();
  const spent = await reserveAnswerTokens(ctx.db, {
    id,
    organizationId: ctx.org.organizationId,
    day: utcToday(now),
    budget,
    tokens: ctx.env.AI_ANSWER_TOKEN_CAP,
    now,
    expiresAt: new Date(now.getTime() + ANSWER_LEASE_MS),
  });
  if (!spent) return id;
  const used = spent.used + spent.reserved;
  throw new AppError(
    "TOO_MANY_REQUESTS",
    `Your organization has used its daily AI token budget (${used.toLocaleString("en")} of ${budget.toLocaleString("en")} tokens). It resets at midnight UTC.`,
    { reason: "token_budget_exhausted", budget, used, reserved: spent.reserved },
  );
}

const ANSWER_IN_PROGRESS = "An answer is already being written in this conversation. Wait for it, or stop it, before sending another message.";

/** The user's question as the conversation stores it (text parts only). */
const questionOf = (message: ChatRequestInput["message"]): UIMessage | null =>
  message.role === "user" ? { id: message.id, role: "user", parts: message.parts.map((part) => ({ type: "text", text: part.text })) } : null;

/**
 * The caller's conversation with this id in this project, created with its first question, with
 * the one-answer-at-a-time lease held. Anyone else's is NOT_FOUND.
 */
async function openConversation(ctx: ServiceContext, projectId: string, input: ChatRequestInput, question: UIMessage | null) {
  const { organizationId, userId } = ctx.org;
  const now = new Date();
  const opened = await openConversationForAnswer(ctx.db, {
    id: input.id,
    organizationId,
    projectId,
    ownerUserId: userId,
    title: DEFAULT_CHAT_TITLE,
    dateFrom: input.dateFrom ?? null,
    dateTo: input.dateTo ?? null,
    question: question && { messageId: question.id, parts: question.parts },
    now,
    leaseUntil: new Date(now.getTime() + ANSWER_LEASE_MS),
  });
  if (opened) return opened;
  // The rare path: read it to say which refusal applies.
  const existing = await selectConversation(ctx.db, organizationId, userId, input.id);
  if (existing?.projectId === projectId) throw new AppError("CONFLICT", ANSWER_IN_PROGRESS);
  throw notFound("Conversation");
}

/**
 * The stored history with the new message: a new question appended (and saved: the question is
 * kept whatever happens to the answer), or the pending answer with the user's decisions. A new
 * conversation's question was stored with it.
 */
async function historyWith(
  ctx: ServiceContext,
  conversation: { id: string; isNew: boolean },
  message: ChatRequestInput["message"],
  question: UIMessage | null,
) {
  if (conversation.isNew && question) return [question];
  const { organizationId } = ctx.org;
  const rows = await selectMessages(ctx.db, organizationId, conversation.id);
  const stored = rows.map(toConversationMessage).map(({ id, role, parts }) => ({ id, role, parts }) as UIMessage);
  if (question) {
    // A retry (the browser's Retry after a failed answer) re-sends the question that has no answer yet.
    if (stored.at(-1)?.id === question.id && stored.at(-1)?.role === "user") return validated(stored);
    if (stored.some((previous) => previous.id === question.id)) throw new AppError("BAD_REQUEST", "This message was already sent");
    for (const expired of expireUnansweredApprovals(stored))
      await saveMessage(ctx.db, organizationId, conversation.id, { messageId: expired.id, role: expired.role, parts: expired.parts });
    const history = [...stored, question];
    await validated(history);
    await saveMessage(ctx.db, organizationId, conversation.id, { messageId: question.id, role: "user", parts: question.parts });
    return history;
  }
  const last = stored.at(-1);
  if (message.role !== "assistant" || !last || last.role !== "assistant" || last.id !== message.id)
    throw new AppError("BAD_REQUEST", "The message answers no pending tool approval");
  return validated([...stored.slice(0, -1), applyApprovals(last, message)]);
}

async function validated(history: UIMessage[]) {
  const result = await safeValidateUIMessages({ messages: history });
  if (!result.success) throw new AppError("BAD_REQUEST", "The conversation's messages could not be read");
  return history;
}

/**
 * Everything before the first byte of an answer: plan, project, provider, budget, and the
 * conversation with its one-answer-at-a-time lease, each refused as an ordinary REST error. Then
 * the answer streams as an AI SDK UI message stream, and is saved when it ends — also when the
 * client went away.
 */
export async function startChatAnswer(
  ctx: ServiceContext,
  projectId: string,
  input: ChatRequestInput,
  abortSignal: AbortSignal,
): Promise<ReadableStream<UIMessageChunk>> {
  const { organizationId } = ctx.org;
  // The gates read independently, so all at once; refused in the order a user should hear them.
  const [plan, checkedProject] = await Promise.allSettled([requireAgentPlan(ctx, organizationId), requireProject(ctx, projectId)]);
  if (plan.status === "rejected") throw plan.reason;
  if (checkedProject.status === "rejected") throw checkedProject.reason;
  const project = checkedProject.value;
  const provider = ctx.modelProvider;
  if (!provider) throw new AppError("SERVICE_UNAVAILABLE", modelConfigurationProblem(ctx.env) ?? MODEL_NOT_CONFIGURED, { reason: "model_not_configured" });
  const question = questionOf(input.message);
  // Checked before it is stored with a new conversation (the same check as a whole history's).
  if (question) await validated([question]);
  // Reserved before the conversation is opened, so a refused first question is not stored.
  const reservationId = await reserveBudget(ctx, new Date());
  const release = async () => {
    if (reservationId) await releaseReservation(ctx.db, organizationId, reservationId);
  };
  const conversation = await openConversation(ctx, projectId, input, question).catch(async (error: unknown) => {
    await release();
    throw error;
  });

  try {
    const history = await historyWith(ctx, conversation, input.message, question);

    const window = conversation.dateFrom && conversation.dateTo ? { from: conversation.dateFrom, to: conversation.dateTo } : undefined;
    // Writes run only after the caller approved them in the chat: the activity says so (via "agent").
    const scope: AgentScope = { db: ctx.db, org: ctx.org, projectId, window, checkedProject: project, via: "agent" };
    const tools = agentToolSet(scope, ctx.logger);
    const model = provider.languageModel(provider.modelId);
    const messages = await convertToModelMessages(pruneHistory(history, ctx.env.AI_CONTEXT_TOKENS), { tools, ignoreIncompleteToolCalls: true });
    const usage = { inputTokens: 0, outputTokens: 0 };
    const questionText = question ? input.message.parts.map((part) => part.text).join("\n") : "";
    // Asked beside the answer rather than after it, so the answer's end does not wait for a fourth model call.
    const titled = conversation.isNew && questionText ? generateChatTitle(model, questionText) : null;
    // The title is paid from the same cap as the answer's steps.
    const stepsCap = ctx.env.AI_ANSWER_TOKEN_CAP - (titled ? titleTokensAtMost(questionText) : 0);

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
      stopWhen: [stepCountIs(ctx.env.AI_MAX_TOOL_STEPS), answerTokenCapReached(stepsCap)],
      abortSignal,
      maxRetries: 1,
      // Counted per step, written once when the answer ends (also after an error or a stop).
      onStepFinish: (step) => {
        usage.inputTokens += step.usage.inputTokens ?? 0;
        usage.outputTokens += step.usage.outputTokens ?? 0;
      },
      onError: ({ error }) => ctx.logger.warn("chat answer failed", { requestId: ctx.requestId, conversationId: conversation.id, err: error }),
    });
    // The result's own UI message stream, not one merged into createUIMessageStream's: on Node 20
    // every web stream and every hop between two costs (bench:chat).
    return result.toUIMessageStream<UIMessage>({
      originalMessages: history,
      generateMessageId: () => crypto.randomUUID(),
      sendReasoning: true,
      onError: chatErrorMessage,
      messageMetadata: ({ part }) =>
        part.type === "finish"
          ? { inputTokens: part.totalUsage.inputTokens ?? null, outputTokens: part.totalUsage.outputTokens ?? null, modelId: provider.modelId }
          : undefined,
      onFinish: async ({ responseMessage }) => {
        try {
          const parts = storableParts(responseMessage.parts);
          const title = await titled;
          await finishAnswer(ctx.db, {
            organizationId,
            conversationId: conversation.id,
            reservationId,
            answer: parts.some((part) => part.type !== "step-start") ? { messageId: responseMessage.id, parts, ...usage, modelId: provider.modelId } : null,
            usage: {
              inputTokens: usage.inputTokens + (title?.inputTokens ?? 0),
              outputTokens: usage.outputTokens + (title?.outputTokens ?? 0),
              day: utcToday(),
            },
            title: title && title.title !== DEFAULT_CHAT_TITLE ? title.title : null,
            defaultTitle: DEFAULT_CHAT_TITLE,
            now: new Date(),
          });
        } catch (error) {
          ctx.logger.error("saving a chat answer failed", { requestId: ctx.requestId, conversationId: conversation.id, err: error });
          await releaseAnswerLease(ctx.db, organizationId, conversation.id).catch(() => {});
          await release().catch(() => {});
        }
      },
    });
  } catch (error) {
    await releaseAnswerLease(ctx.db, organizationId, conversation.id);
    await release();
    throw error;
  }
}
