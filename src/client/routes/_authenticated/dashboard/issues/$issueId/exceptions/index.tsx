import { createFileRoute, Link, notFound, redirect, stripSearchParams, useNavigate, type SearchSchemaInput } from "@tanstack/react-router";
import { keepPreviousData } from "@tanstack/react-query";
import { z } from "zod";
import { ArrowLeftIcon } from "lucide-react";
import { ISSUE_EXCEPTIONS_PAGE_SIZE } from "@/shared/constants";
import { trpc, trpcErrorCode } from "@/client/lib/trpc";
import { followLinkOrNotFound } from "@/client/lib/link-organization";
import { cleanText } from "@/client/lib/untrusted-text";
import { pageParam, sizeParam } from "@/client/lib/search-params";
import { ExceptionsTable } from "@/client/components/exceptions-table";
import { NotFoundView } from "@/client/components/not-found-view";
import { PageHeader } from "@/client/components/page-header";
import { Pager } from "@/client/components/pager";
import { usePageClamp } from "@/client/lib/use-page-clamp";
import { PastLastPage } from "@/client/components/past-last-page";

import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Button } from "@/client/components/ui/button";
import { Card } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";
import { IssueScopeSearch, projectOfIssue, Uuid } from "../-issue-search";
import { PendingView } from "@/client/components/pending-view";
import { IssueScreenError } from "../-issue-screen-error";

const IssueExceptionsSearch = IssueScopeSearch.extend({ page: pageParam, size: sizeParam(ISSUE_EXCEPTIONS_PAGE_SIZE) });

export const Route = createFileRoute("/_authenticated/dashboard/issues/$issueId/exceptions/")({
  validateSearch: (search: z.input<typeof IssueExceptionsSearch> & SearchSchemaInput) => IssueExceptionsSearch.parse(search),
  search: { middlewares: [stripSearchParams({ page: 1, size: ISSUE_EXCEPTIONS_PAGE_SIZE })] },
  loaderDeps: ({ search }) => search,
  loader: async (args) => {
    const { context, params, deps } = args;
    if (!context.activeOrganizationId) return;
    if (!Uuid.safeParse(params.issueId).success) throw notFound();
    if (!deps.projectId) {
      const projectId = await projectOfIssue(args, params.issueId);
      throw redirect({ to: "/dashboard/issues/$issueId/exceptions", params, search: { ...deps, projectId }, replace: true });
    }
    const scope = { projectId: deps.projectId, issueId: params.issueId };
    void context.trpc.exception.list.prefetch({ ...scope, page: deps.page, size: deps.size });
    try {
      await context.trpc.issue.get.ensureData(scope);
    } catch (error) {
      if (trpcErrorCode(error) === "NOT_FOUND") await followLinkOrNotFound(args, { kind: "issue", id: params.issueId });
      throw error;
    }
  },
  component: IssueExceptionsScreen,
  notFoundComponent: () => <NotFoundView />,
  errorComponent: IssueScreenError,
});

function IssueExceptionsScreen() {
  const { activeOrganizationId } = Route.useRouteContext();
  const { projectId } = Route.useSearch();
  if (!activeOrganizationId) return <NotFoundView type="organization" />;
  // Without a project the loader is redirecting to the issue's own.
  if (!projectId) return <PendingView />;
  return <IssueExceptions projectId={projectId} />;
}

function IssueExceptions({ projectId }: { projectId: string }) {
  const { issueId } = Route.useParams();
  const { page, size } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const issue = trpc.issue.get.useQuery({ projectId, issueId });
  const exceptions = trpc.exception.list.useQuery({ projectId, issueId, page, size }, { placeholderData: keepPreviousData });
  const pastEnd = usePageClamp(
    exceptions.isPlaceholderData ? undefined : exceptions.data?.meta,
    page,
    (next) => void navigate({ search: (previous) => ({ ...previous, page: next }), replace: true }),
  );

  return (
    <div className="grid gap-4 grid-cols-[minmax(0,1fr)]">
      <div>
        <Button asChild variant="ghost" size="sm" className="mb-3 -ml-2">
          <Link to="/dashboard/issues/$issueId" params={{ issueId }} search={{ projectId }}>
            <ArrowLeftIcon /> Issue
          </Link>
        </Button>
        <PageHeader
          title="Exceptions"
          description={
            issue.data ? <span className="break-words [overflow-wrap:anywhere]">{cleanText(issue.data.title)}</span> : <Skeleton className="h-4 w-64" />
          }
        />
      </div>
      <Card className="gap-0 py-0">
        {exceptions.isPending ? (
          <div className="grid gap-2 p-4" aria-busy>
            {Array.from({ length: 5 }, (_, index) => (
              <Skeleton key={index} className="h-7" />
            ))}
          </div>
        ) : exceptions.error ? (
          <div className="p-4">
            {trpcErrorCode(exceptions.error) === "NOT_FOUND" ? (
              <NotFoundView />
            ) : (
              <QueryErrorAlert error={exceptions.error} onRetry={() => void exceptions.refetch()} title="Could not load the exceptions" />
            )}
          </div>
        ) : pastEnd ? (
          <PastLastPage />
        ) : exceptions.data.items.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-muted-foreground" data-testid="exceptions-empty">
            No stored occurrences for this issue.
          </p>
        ) : (
          <ExceptionsTable exceptions={exceptions.data.items} projectId={projectId} />
        )}
      </Card>
      {exceptions.data && exceptions.data.meta.totalItems > 0 && !pastEnd ? (
        <Pager
          meta={exceptions.data.meta}
          onPageChange={(next) => void navigate({ search: (previous) => ({ ...previous, page: next }) })}
          onSizeChange={(next) => void navigate({ search: (previous) => ({ ...previous, size: next, page: 1 }) })}
        />
      ) : null}
    </div>
  );
}
