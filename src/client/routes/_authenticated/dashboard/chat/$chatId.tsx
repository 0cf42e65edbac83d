import { useChat } from "@ai-sdk/react";
import { createFileRoute, redirect, type SearchSchemaInput } from "@tanstack/react-router";
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { BrainIcon, RotateCcwIcon, SendIcon, SquareIcon } from "lucide-react";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { z } from "zod";
import { MAX_QUESTION_LENGTH } from "@/shared/chat.inputs";
import { trpc, trpcErrorCode } from "@/client/lib/trpc";
import { followLinkToItsOrganization } from "@/client/lib/link-organization";
import { isPlanRequired, PLANS_PAGE } from "@/client/lib/plan-gate";
import { NotFoundView } from "@/client/components/not-found-view";
import { PageHeader } from "@/client/components/page-header";
import { PendingView } from "@/client/components/pending-view";
import { UntrustedText } from "@/client/components/untrusted-text";
import { Alert, AlertDescription } from "@/client/components/ui/alert";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent } from "@/client/components/ui/card";
import { ChatMarkdown } from "./-chat-markdown";
import { chatErrorText, chatTransport } from "./-chat-transport";
import { ToolCard, type ToolPart } from "./-tool-card";

const ChatSearch = z.object({
  projectId: z.uuid().optional().catch(undefined),
  dateFrom: z.string().optional(),
  dateTo: z.string().optional(),
  new: z.coerce.boolean().optional(),
});

export const Route = createFileRoute("/_authenticated/dashboard/chat/$chatId")({
  params: { parse: (params) => ({ chatId: z.uuid().parse(params.chatId) }) },
  validateSearch: (search: z.input<typeof ChatSearch> & SearchSchemaInput) => ChatSearch.parse(search),
  loaderDeps: ({ search }) => ({ isNew: Boolean(search.new) }),
  loader: async (args) => {
    const { context, params, deps } = args;
    if (deps.isNew) return { conversation: null, missing: false };
    try {
      // Never cached (spec §2): every visit reads the stored conversation.
      return { conversation: await context.trpc.conversation.get.fetch({ id: params.chatId }, { staleTime: 0 }), missing: false };
    } catch (error) {
      if (isPlanRequired(error)) throw redirect({ href: PLANS_PAGE });
      // A conversation of the user's in another of their organizations: that one becomes active.
      if (trpcErrorCode(error) === "NOT_FOUND") await followLinkToItsOrganization(args, { kind: "chat", id: params.chatId });
      // A failed load is swallowed (spec §8): the project may still come from the search params.
      return { conversation: null, missing: trpcErrorCode(error) === "NOT_FOUND" };
    }
  },
  staleTime: 0,
  gcTime: 0,
  component: ChatScreen,
});

function ChatScreen() {
  const { chatId } = Route.useParams();
  const search = Route.useSearch();
  const { conversation, missing } = Route.useLoaderData();
  const projects = trpc.project.list.useQuery();
  const projectId = conversation?.projectId ?? search.projectId;
  if (projects.isPending) return <PendingView />;
  const project = projects.data?.find((candidate) => candidate.id === projectId);
  // With no project to fall back on, an unknown (or another person's) chat id is what is missing.
  if (!project) return <NotFoundView type={missing ? "conversation" : "project"} />;
  const window = {
    dateFrom: conversation?.dateFrom?.toISOString() ?? search.dateFrom,
    dateTo: conversation?.dateTo?.toISOString() ?? search.dateTo,
  };
  return (
    <>
      <PageHeader
        title={conversation?.title ?? "New chat"}
        description={`About ${project.name}${window.dateFrom ? ` · ${window.dateFrom.slice(0, 10)} to ${window.dateTo?.slice(0, 10)}` : ""}`}
      />
      <Conversation
        key={chatId}
        chatId={chatId}
        projectId={project.id}
        window={window}
        initialMessages={(conversation?.messages ?? []) as UIMessage[]}
        isNew={Boolean(search.new)}
      />
    </>
  );
}

interface ConversationProps {
  chatId: string;
  projectId: string;
  window: { dateFrom?: string; dateTo?: string };
  initialMessages: UIMessage[];
  isNew: boolean;
}

function Conversation({ chatId, projectId, window, initialMessages, isNew }: ConversationProps) {
  const utils = trpc.useUtils();
  const navigate = Route.useNavigate();
  const transport = useMemo(() => chatTransport(projectId, window), [projectId, window.dateFrom, window.dateTo]);
  const { messages, sendMessage, status, stop, error, regenerate, addToolApprovalResponse, clearError } = useChat({
    id: chatId,
    messages: initialMessages,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: () => {
      void utils.conversation.invalidate();
      // Once stored, the conversation is loaded like any other: a reload must not start it again.
      if (isNew) void navigate({ search: (previous) => ({ ...previous, new: undefined }), replace: true });
    },
  });
  const [draft, setDraft] = useState("");
  const sentFirst = useRef(false);

  useEffect(() => {
    if (!isNew || sentFirst.current) return;
    const first = sessionStorage.getItem("faultline.chat.firstQuestion");
    sentFirst.current = true;
    if (first) {
      sessionStorage.removeItem("faultline.chat.firstQuestion");
      void sendMessage({ text: first });
    }
  }, [isNew, sendMessage]);

  const failure = error ? chatErrorText(error) : null;
  useEffect(() => {
    if (failure?.planRequired) globalThis.location.assign(PLANS_PAGE);
  }, [failure?.planRequired]);

  const busy = status === "submitted" || status === "streaming";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.trim() || busy) return;
    void sendMessage({ text: draft.trim() });
    setDraft("");
  };

  return (
    <div className="grid gap-4">
      <Card>
        <CardContent className="grid gap-4" data-testid="chat-messages" aria-live="polite">
          {messages.length === 0 && !busy ? <p className="text-sm text-muted-foreground">Ask a question about this project's errors.</p> : null}
          {messages.map((message) => (
            <ChatMessage
              key={message.id}
              message={message}
              projectId={projectId}
              onApproval={(id, approved) => void addToolApprovalResponse({ id, approved })}
            />
          ))}
          {status === "submitted" ? <p className="text-sm text-muted-foreground">Thinking…</p> : null}
          {failure ? (
            <Alert variant="destructive" data-testid="chat-error">
              <AlertDescription className="flex flex-wrap items-center gap-2">
                <span className="flex-1">{failure.message}</span>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => {
                    clearError();
                    void regenerate();
                  }}
                >
                  <RotateCcwIcon aria-hidden /> Retry
                </Button>
              </AlertDescription>
            </Alert>
          ) : null}
        </CardContent>
      </Card>
      <form className="flex items-end gap-2" onSubmit={submit}>
        <textarea
          aria-label="Message"
          className="min-h-16 flex-1 rounded-md border bg-background p-2 text-sm"
          value={draft}
          maxLength={MAX_QUESTION_LENGTH}
          placeholder="Ask a follow-up question"
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey) submit(event);
          }}
        />
        {busy ? (
          <Button type="button" variant="outline" onClick={() => void stop()}>
            <SquareIcon aria-hidden /> Stop
          </Button>
        ) : (
          <Button type="submit" disabled={!draft.trim()}>
            <SendIcon aria-hidden /> Send
          </Button>
        )}
      </form>
    </div>
  );
}

function ChatMessage({ message, projectId, onApproval }: { message: UIMessage; projectId: string; onApproval: (id: string, approved: boolean) => void }) {
  const usage = message.metadata as { inputTokens?: number | null; outputTokens?: number | null } | undefined;
  if (message.role === "user")
    return (
      <div className="ml-auto max-w-[80%] rounded-lg bg-primary px-3 py-2 text-sm text-primary-foreground" data-testid="user-message">
        {message.parts.map((part, index) => (part.type === "text" ? <UntrustedText key={index} value={part.text} maxLength={4000} /> : null))}
      </div>
    );
  return (
    <div className="max-w-full" data-testid="assistant-message">
      {message.parts.map((part, index) => {
        if (part.type === "text") return <ChatMarkdown key={index} text={part.text} />;
        if (part.type === "reasoning")
          return (
            <details key={index} className="my-1 text-xs text-muted-foreground">
              <summary className="flex cursor-pointer items-center gap-1">
                <BrainIcon className="size-3.5" aria-hidden /> Reasoning
              </summary>
              <p className="mt-1 whitespace-pre-wrap">{part.text}</p>
            </details>
          );
        if (part.type.startsWith("tool-")) return <ToolCard key={index} part={part as unknown as ToolPart} projectId={projectId} onApproval={onApproval} />;
        return null;
      })}
      {usage && (usage.inputTokens || usage.outputTokens) ? (
        <p className="text-xs text-muted-foreground" data-testid="token-usage">
          {(usage.inputTokens ?? 0).toLocaleString()} input · {(usage.outputTokens ?? 0).toLocaleString()} output tokens
        </p>
      ) : null}
    </div>
  );
}
