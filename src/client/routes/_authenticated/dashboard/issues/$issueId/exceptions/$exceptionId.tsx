import { createFileRoute, Link, notFound, redirect, type SearchSchemaInput } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import type { ExceptionDetail } from "@/shared/triage.views";
import { trpc, trpcErrorCode } from "@/client/lib/trpc";
import { followLinkOrNotFound } from "@/client/lib/link-organization";
import { NotFoundView } from "@/client/components/not-found-view";
import { PendingView } from "@/client/components/pending-view";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Button } from "@/client/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/client/components/ui/tabs";
import { IssueScopeSearch, projectOfIssue, Uuid, type IssueScopeSearchInput } from "../-issue-search";
import { IssueScreenError } from "../-issue-screen-error";
import { readOccurrence } from "@/shared/occurrence-view";
import { ExceptionHeader } from "./-exception/exception-header";
import { ExceptionChain } from "./-exception/stack-trace";
import { RequestSection } from "./-exception/request-section";
import { BreadcrumbsSection } from "./-exception/breadcrumbs-section";
import { ContextsSection } from "./-exception/contexts-section";
import { EventDataSection } from "./-exception/event-data-section";
import { RawJsonSection } from "./-exception/raw-json-section";
import { BlockIpPanel } from "@/client/components/waf/block-ip-panel";
import { ThreadsSection } from "./-exception/threads-section";
import { DebugImagesSection, ModulesSection } from "./-exception/native-debug-section";

export const Route = createFileRoute("/_authenticated/dashboard/issues/$issueId/exceptions/$exceptionId")({
  validateSearch: (search: IssueScopeSearchInput & SearchSchemaInput) => IssueScopeSearch.parse(search),
  loaderDeps: ({ search }) => ({ projectId: search.projectId }),
  loader: async (args) => {
    const { context, params, deps } = args;
    if (!context.activeOrganizationId) return;
    if (!Uuid.safeParse(params.exceptionId).success || !Uuid.safeParse(params.issueId).success) throw notFound();
    if (!deps.projectId) {
      const projectId = await projectOfIssue(args, params.issueId);
      throw redirect({ to: "/dashboard/issues/$issueId/exceptions/$exceptionId", params, search: { projectId }, replace: true });
    }
    let exception: ExceptionDetail;
    try {
      exception = await context.trpc.exception.get.ensureData({ projectId: deps.projectId, exceptionId: params.exceptionId });
    } catch (error) {
      if (trpcErrorCode(error) === "NOT_FOUND") await followLinkOrNotFound(args, { kind: "exception", id: params.exceptionId });
      throw error;
    }
    // An exception is addressed under its own issue only.
    if (exception.issueId !== params.issueId) throw notFound();
  },
  component: ExceptionScreen,
  // Spec §2: a missing exception is a plain not-found.
  notFoundComponent: () => <NotFoundView />,
  errorComponent: IssueScreenError,
});

function ExceptionScreen() {
  const { activeOrganizationId } = Route.useRouteContext();
  const { projectId } = Route.useSearch();
  if (!activeOrganizationId) return <NotFoundView type="organization" />;
  // Without a project the loader is redirecting to the issue's own.
  if (!projectId) return <PendingView />;
  return <ExceptionDetailScreen projectId={projectId} />;
}

function ExceptionDetailScreen({ projectId }: { projectId: string }) {
  const { issueId, exceptionId } = Route.useParams();
  const exception = trpc.exception.get.useQuery({ projectId, exceptionId });

  if (exception.isPending) return <PendingView />;
  if (exception.error) {
    if (trpcErrorCode(exception.error) === "NOT_FOUND") return <NotFoundView />;
    return <QueryErrorAlert error={exception.error} onRetry={() => void exception.refetch()} title="Could not load the exception" />;
  }

  const occurrence = readOccurrence(exception.data.data);
  return (
    <div className="grid gap-6 grid-cols-[minmax(0,1fr)]" data-testid="exception-detail">
      <div className="flex flex-wrap gap-1">
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link to="/dashboard/issues/$issueId" params={{ issueId }} search={{ projectId }}>
            <ArrowLeftIcon /> Issue
          </Link>
        </Button>
        <Button asChild variant="ghost" size="sm">
          <Link to="/dashboard/issues/$issueId/exceptions" params={{ issueId }} search={{ projectId }}>
            All exceptions
          </Link>
        </Button>
      </div>
      <ExceptionHeader exception={exception.data} occurrence={occurrence} />
      <BlockIpPanel exception={exception.data} projectId={projectId} />
      <Tabs defaultValue="details" className="gap-4">
        <TabsList>
          <TabsTrigger value="details" data-testid="exception-tab-details">
            Details
          </TabsTrigger>
          <TabsTrigger value="raw" data-testid="exception-tab-raw">
            Raw JSON
          </TabsTrigger>
        </TabsList>
        <TabsContent value="details" className="grid gap-6 grid-cols-[minmax(0,1fr)]">
          <ExceptionChain exceptions={occurrence.exceptions} stacktrace={occurrence.stacktrace} message={occurrence.message} />
          <ThreadsSection threads={occurrence.threads} />
          {occurrence.request ? <RequestSection request={occurrence.request} /> : null}
          <EventDataSection occurrence={occurrence} tags={exception.data.tags} />
          <BreadcrumbsSection breadcrumbs={occurrence.breadcrumbs} />
          <ContextsSection contexts={occurrence.contexts} />
          <DebugImagesSection images={occurrence.debugImages} />
          <ModulesSection modules={occurrence.modules} />
        </TabsContent>
        <TabsContent value="raw">
          <RawJsonSection data={exception.data.data} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
