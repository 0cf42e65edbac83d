import type { UIMessage } from "ai";
import { AppError } from "../errors";
import type { ChatMessageInput } from "../../shared/chat.inputs";

type Part = UIMessage["parts"][number] & { state?: string; toolCallId?: string; approval?: { id: string; approved?: boolean; reason?: string } };

const isToolPart = (part: { type: string }) => part.type.startsWith("tool-") || part.type === "dynamic-tool";

/**
 * The parts of an answer that may be stored: a tool call the model was still writing, or one that
 * never ran (the stream was cut), would make the next request's history invalid, so it is left
 * out; text cut mid-stream is kept as written.
 */
export function storableParts(parts: UIMessage["parts"]): UIMessage["parts"] {
  return (parts as Part[])
    .filter((part) => !(isToolPart(part) && (part.state === "input-streaming" || part.state === "input-available")))
    .map((part) =>
      (part.type === "text" || part.type === "reasoning") && part.state === "streaming" ? { ...part, state: "done" } : part,
    ) as UIMessage["parts"];
}

/**
 * The stored answer with the user's approval decisions applied. Only the decisions are taken
 * from the client (approved, reason) and only for calls the stored answer is waiting on, matched by
 * tool call id AND approval id — a client cannot add tool results, change a call's input or
 * approve a call the model never made.
 */
export function applyApprovals(stored: UIMessage, client: Extract<ChatMessageInput, { role: "assistant" }>): UIMessage {
  let decided = 0;
  const parts = (stored.parts as Part[]).map((part) => {
    if (!isToolPart(part) || part.state !== "approval-requested" || !part.approval) return part;
    const answer = client.parts.find((candidate) => candidate.toolCallId === part.toolCallId && candidate.approval?.id === part.approval!.id);
    if (typeof answer?.approval?.approved !== "boolean") return part;
    decided += 1;
    const reason = answer.approval.reason;
    return { ...part, state: "approval-responded", approval: { id: part.approval.id, approved: answer.approval.approved, ...(reason ? { reason } : {}) } };
  });
  if (decided === 0) throw new AppError("BAD_REQUEST", "The message answers no pending tool approval");
  return { ...stored, parts: parts as UIMessage["parts"] };
}

export const UNANSWERED_APPROVAL = "The user sent a new message instead of approving this call; it did not run.";

/**
 * A new question settles every approval still waiting: the calls count as denied (and did not
 * run), so the history stays valid for the model and an old Approve button can no longer act.
 * Answers the messages that changed, to be stored.
 */
export function expireUnansweredApprovals(messages: UIMessage[]): UIMessage[] {
  const changed: UIMessage[] = [];
  for (const [index, message] of messages.entries()) {
    if (!(message.parts as Part[]).some((part) => isToolPart(part) && part.state === "approval-requested")) continue;
    const parts = (message.parts as Part[]).map((part) =>
      isToolPart(part) && part.state === "approval-requested" && part.approval
        ? { ...part, state: "output-denied", approval: { id: part.approval.id, approved: false, reason: UNANSWERED_APPROVAL } }
        : part,
    );
    messages[index] = { ...message, parts: parts as UIMessage["parts"] };
    changed.push(messages[index]);
  }
  return changed;
}

/** Rough token count (about four characters a token): enough to keep the context within budget. */
export const estimateTokens = (message: UIMessage) => Math.ceil(JSON.stringify(message.parts).length / 4);

/**
 * The newest messages that fit `budgetTokens`, starting with a user message. The last message is
 * always kept (it is the question, or the answer awaiting approval), however large.
 */
export function pruneHistory(messages: UIMessage[], budgetTokens: number): UIMessage[] {
  let used = 0;
  let start = messages.length;
  while (start > 0) {
    const cost = estimateTokens(messages[start - 1]);
    if (start < messages.length && used + cost > budgetTokens) break;
    used += cost;
    start -= 1;
  }
  let kept = messages.slice(start);
  while (kept.length > 1 && kept[0].role !== "user") kept = kept.slice(1);
  return kept;
}
