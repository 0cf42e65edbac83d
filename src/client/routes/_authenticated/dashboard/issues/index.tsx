import { useState } from "react";
import { createFileRoute, redirect, stripSearchParams, useNavigate, type ErrorComponentProps, type SearchSchemaInput } from "@tanstack/react-router";
import { keepPreviousData } from "@tanstack/react-query";
import { ISSUES_STALE_TIME_MS } from "@/shared/constants";
import type { IssueStatus } from "@/shared/triage.inputs";
import { trpc, trpcErrorCode, type ProjectView } from "@/client/lib/trpc";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { firstProjectToRedirectTo } from "@/client/lib/project-loader";
import { ProjectScopedScreen } from "@/client/components/project-scoped-screen";
import { ProjectSelect } from "@/client/components/project-select";
import { PageHeader } from "@/client/components/page-header";
import { ErrorView } from "@/client/components/error-view";
import { NotFoundView } from "@/client/components/not-found-view";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Pager } from "@/client/components/pager";
import { usePageClamp } from "@/client/lib/use-page-clamp";
import { PastLastPage } from "@/client/components/past-last-page";

import { Card } from "@/client/components/ui/card";
import { hasIssueFilters, ISSUES_SEARCH_DEFAULTS, issueListInput, IssuesSearch, type IssuesSearchInput } from "./-issues-search";
import { IssueFilters } from "./-issue-filters";
import { IssuesTable, IssuesTableSkeleton } from "./-issues-table";
import { BulkActions } from "./-bulk-actions";
import { ExportCsvButton } from "./-export-csv-button";
import { IssuesEmptyState } from "./-issues-empty-state";

export const Route = createFileRoute("/_authenticated/dashboard/issues/")({
  validateSearch: (search: IssuesSearchInput & SearchSchemaInput) => IssuesSearch.parse(search),
  search: { middlewares: [stripSearchParams(ISSUES_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: async (args) => {
    const { context, deps } = args;
    const firstProjectId = await firstProjectToRedirectTo(args, deps.projectId);
    if (firstProjectId) throw redirect({ to: "/dashboard/issues", search: { ...deps, projectId: firstProjectId }, replace: true });
    // Start the list while the screen renders; the screen shows its own loading and error states.
    if (deps.projectId) void context.trpc.issue.list.prefetch(issueListInput(deps.projectId, deps), { staleTime: ISSUES_STALE_TIME_MS });
  },
  component: IssuesScreen,
  errorComponent: IssuesErrorView,
});

function IssuesScreen() {
  const search = Route.useSearch();
  return (
    <ProjectScopedScreen title="Issues" projectId={search.projectId}>
      {(project, projects) => <IssueList project={project} projects={projects} search={search} />}
    </ProjectScopedScreen>
  );
}

const BULK_VERBS: Record<IssueStatus, string> = { RESOLVED: "Resolved", IGNORED: "Ignored", OPEN: "Reopened" };
const STATUS_WORDS: Record<IssueStatus, string> = { RESOLVED: "resolved", IGNORED: "ignored", OPEN: "open" };

function IssueList({ project, projects, search }: { project: ProjectView; projects: ProjectView[]; search: IssuesSearch }) {
  const navigate = useNavigate({ from: Route.fullPath });
  const canTriage = usePermissions().can("issue:triage");
  const utils = trpc.useUtils();
  const issues = trpc.issue.list.useQuery(issueListInput(project.id, search), { staleTime: ISSUES_STALE_TIME_MS, placeholderData: keepPreviousData });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  // Only rows on screen can be selected: paging or filtering away drops the others.
  const items = issues.data?.items ?? [];
  const selectedIssues = items.filter((issue) => selected.has(issue.id));
  const selectedIds = selectedIssues.map((issue) => issue.id);

  const bulk = useToastMutation(utils.client.issue.bulkSetStatus.mutate, {
    // The count is of issues that changed; already-resolved ones in a "resolve" are not.
    success: (result, variables) =>
      result.updated === 0
        ? { kind: "info", message: `The selected issues were already ${STATUS_WORDS[variables.status]}` }
        : `${BULK_VERBS[variables.status]} ${result.updated} ${result.updated === 1 ? "issue" : "issues"}`,
    onSuccess: async () => {
      setSelected(new Set());
      await Promise.all([utils.issue.invalidate(), utils.project.overview.invalidate()]);
    },
  });

  const merge = useToastMutation(utils.client.issue.merge.mutate, {
    success: (merged, variables) => `Merged ${variables.issueIds.length} issues into “${merged.title}”`,
    onSuccess: async (merged) => {
      setSelected(new Set());
      await Promise.all([utils.issue.invalidate(), utils.project.overview.invalidate()]);
      void navigate({ to: "/dashboard/issues/$issueId", params: { issueId: merged.id }, search: { projectId: project.id } });
    },
  });

  const update = (changes: Partial<IssuesSearch>) => {
    void navigate({ search: (previous) => ({ ...previous, ...changes, page: changes.page ?? 1 }) });
  };
  const pastEnd = usePageClamp(
    issues.isPlaceholderData ? undefined : issues.data?.meta,
    search.page,
    (page) => void navigate({ search: (previous) => ({ ...previous, page }), replace: true }),
  );

  return (
    <>
      <PageHeader
        title="Issues"
        description={`Errors of ${project.name}, grouped by cause.`}
        actions={
          <div className="flex items-center gap-2">
            <ExportCsvButton projectId={project.id} search={search} />
            <ProjectSelect projects={projects} value={project.id} onChange={(projectId) => update({ projectId })} />
          </div>
        }
      />
      <div className="grid gap-4 grid-cols-[minmax(0,1fr)]">
        <IssueFilters search={search} onChange={update} />
        <Card className="gap-0 py-0">
          {canTriage ? (
            <BulkActions
              selected={selectedIssues}
              pending={bulk.isPending || merge.isPending}
              onSetStatus={(status) => bulk.mutate({ projectId: project.id, issueIds: selectedIds, status })}
              onMerge={(targetId) => merge.mutateAsync({ projectId: project.id, issueIds: selectedIds, targetId })}
              refreshing={issues.isFetching && !issues.isPending}
            />
          ) : null}
          {issues.isPending ? (
            <IssuesTableSkeleton />
          ) : issues.error ? (
            <div className="p-4">
              {trpcErrorCode(issues.error) === "NOT_FOUND" ? (
                <NotFoundView type="project" />
              ) : (
                <QueryErrorAlert error={issues.error} onRetry={() => void issues.refetch()} title="Could not load the issues" />
              )}
            </div>
          ) : pastEnd ? (
            <PastLastPage />
          ) : issues.data.items.length === 0 ? (
            <IssuesEmptyState
              filtered={hasIssueFilters(search)}
              project={project}
              onClearFilters={() =>
                update({ status: undefined, severity: undefined, environments: undefined, from: undefined, to: undefined, query: undefined })
              }
            />
          ) : (
            <IssuesTable
              issues={issues.data.items}
              projectId={project.id}
              sort={search.sort}
              onSort={(sort) => update({ sort })}
              selected={canTriage ? selected : null}
              onSelectedChange={setSelected}
            />
          )}
        </Card>
        {issues.data && issues.data.meta.totalItems > 0 && !pastEnd ? (
          <Pager meta={issues.data.meta} onPageChange={(page) => update({ page })} onSizeChange={(size) => update({ size })} />
        ) : null}
      </div>
    </>
  );
}

function IssuesErrorView(props: ErrorComponentProps) {
  return (
    <>
      <PageHeader title="Issues" />
      <ErrorView {...props} description="The issues could not be loaded." />
    </>
  );
}
