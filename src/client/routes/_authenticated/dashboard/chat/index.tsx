import { createFileRoute, Link, redirect } from "@tanstack/react-router";
import { MessageSquareIcon, PencilIcon, TrashIcon } from "lucide-react";
import { useState } from "react";
import { trpc, type ProjectView } from "@/client/lib/trpc";
import { isPlanRequired, PLANS_PAGE } from "@/client/lib/plan-gate";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { loadProjects } from "@/client/lib/project-loader";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { NotFoundView } from "@/client/components/not-found-view";
import { PageHeader } from "@/client/components/page-header";
import { PendingView } from "@/client/components/pending-view";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { RelativeTime } from "@/client/components/relative-time";
import { UntrustedText } from "@/client/components/untrusted-text";
import { Alert, AlertDescription, AlertTitle } from "@/client/components/ui/alert";
import { Button } from "@/client/components/ui/button";
import { Card } from "@/client/components/ui/card";
import { Input } from "@/client/components/ui/input";
import { NewChatForm } from "./-new-chat-form";

export const Route = createFileRoute("/_authenticated/dashboard/chat/")({
  loader: async ({ context }) => {
    if (!context.activeOrganizationId) return;
    await loadProjects(context.trpc, context.activeOrganizationId);
    try {
      await context.trpc.conversation.list.fetch(undefined, { staleTime: 0 });
    } catch (error) {
      // Spec §6/§8: without the plan the user is sent to the plans page.
      if (isPlanRequired(error)) throw redirect({ href: PLANS_PAGE });
    }
  },
  component: ChatListScreen,
});

function ChatListScreen() {
  const { activeOrganizationId } = Route.useRouteContext();
  const projects = trpc.project.list.useQuery(undefined, { enabled: Boolean(activeOrganizationId) });
  const frame = (body: React.ReactNode) => (
    <>
      <PageHeader title="Chat" description="Ask the AI agent about your project's errors." />
      {body}
    </>
  );
  if (!activeOrganizationId) return frame(<NotFoundView type="organization" />);
  if (projects.isPending) return frame(<PendingView />);
  if (projects.error) return frame(<QueryErrorAlert error={projects.error} onRetry={() => void projects.refetch()} />);
  if (projects.data.length === 0) return frame(<NotFoundView type="projects" />);
  return frame(<ChatHome projects={projects.data} />);
}

function AgentNotConfigured() {
  const status = trpc.agent.status.useQuery(undefined, { staleTime: 0 });
  if (!status.data || status.data.configured) return null;
  return (
    <Alert variant="destructive" data-testid="agent-not-configured">
      <AlertTitle>The AI agent is not configured</AlertTitle>
      <AlertDescription>{status.data.problem}</AlertDescription>
    </Alert>
  );
}

function ChatHome({ projects }: { projects: ProjectView[] }) {
  const conversations = trpc.conversation.list.useQuery(undefined, { staleTime: 0 });
  return (
    <div className="grid gap-4">
      <AgentNotConfigured />
      <NewChatForm projects={projects} />
      <Card className="gap-0 py-0">
        {conversations.isPending ? (
          <PendingView />
        ) : conversations.error ? (
          <div className="p-4">
            <QueryErrorAlert error={conversations.error} onRetry={() => void conversations.refetch()} title="Could not load your conversations" />
          </div>
        ) : conversations.data.length === 0 ? (
          <p className="p-6 text-center text-sm text-muted-foreground">No conversations yet. Ask a question above.</p>
        ) : (
          <ul className="divide-y" data-testid="conversation-list">
            {conversations.data.map((conversation) => (
              <ConversationRow
                key={conversation.id}
                conversation={conversation}
                projectName={projects.find((project) => project.id === conversation.projectId)?.name}
              />
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function ConversationRow({
  conversation,
  projectName,
}: {
  conversation: { id: string; title: string; updatedAt: Date; projectId: string };
  projectName?: string;
}) {
  const utils = trpc.useUtils();
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const rename = useToastMutation((input: { id: string; title: string }) => utils.client.conversation.rename.mutate(input), {
    invalidate: [[["conversation"]]],
    success: "Conversation renamed",
    onSuccess: () => setRenaming(false),
  });
  const remove = useToastMutation((input: { id: string }) => utils.client.conversation.delete.mutate(input), {
    invalidate: [[["conversation"]]],
    success: "Conversation deleted",
  });
  return (
    <li className="flex items-center gap-3 px-4 py-3" data-testid="conversation-row">
      <MessageSquareIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      {renaming ? (
        <form
          className="flex flex-1 gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            rename.mutate({ id: conversation.id, title });
          }}
        >
          <Input aria-label="Conversation title" value={title} maxLength={120} onChange={(event) => setTitle(event.target.value)} autoFocus />
          <Button type="submit" size="sm" disabled={rename.isPending}>
            Save
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={() => setRenaming(false)}>
            Cancel
          </Button>
        </form>
      ) : (
        <Link
          to="/dashboard/chat/$chatId"
          params={{ chatId: conversation.id }}
          search={{ projectId: conversation.projectId }}
          className="min-w-0 flex-1 hover:underline"
        >
          <UntrustedText value={conversation.title} maxLength={120} />
          <span className="ml-2 text-xs text-muted-foreground">{projectName}</span>
        </Link>
      )}
      <RelativeTime date={conversation.updatedAt} className="text-xs text-muted-foreground" />
      <Button size="icon" variant="ghost" aria-label="Rename" onClick={() => setRenaming(true)}>
        <PencilIcon aria-hidden />
      </Button>
      <ConfirmDialog
        trigger={
          <Button size="icon" variant="ghost" aria-label="Delete">
            <TrashIcon aria-hidden />
          </Button>
        }
        title="Delete this conversation?"
        description="Its messages are deleted for good."
        confirmLabel="Delete"
        destructive
        onConfirm={() => remove.mutateAsync({ id: conversation.id })}
      />
    </li>
  );
}
