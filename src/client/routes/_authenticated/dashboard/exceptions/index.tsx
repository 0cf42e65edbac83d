import { createFileRoute, redirect, stripSearchParams, useNavigate, type ErrorComponentProps, type SearchSchemaInput } from "@tanstack/react-router";
import { keepPreviousData } from "@tanstack/react-query";
import { z } from "zod";
import { ISSUE_EXCEPTIONS_PAGE_SIZE } from "@/shared/constants";
import { ENVIRONMENT_LABELS } from "@/shared/environments";
import { trpc, trpcErrorCode, type ProjectView } from "@/client/lib/trpc";
import { lastDays } from "@/client/lib/format";
import { firstProjectToRedirectTo } from "@/client/lib/project-loader";
import { environmentsParam, pageParam, projectIdParam, sizeParam } from "@/client/lib/search-params";
import { ProjectScopedScreen } from "@/client/components/project-scoped-screen";
import { ProjectSelect } from "@/client/components/project-select";
import { EnvironmentFilter } from "@/client/components/environment-filter";
import { OccurrenceChart } from "@/client/components/occurrence-chart";
import { ExceptionsTable } from "@/client/components/exceptions-table";
import { ErrorView } from "@/client/components/error-view";
import { NotFoundView } from "@/client/components/not-found-view";
import { PageHeader } from "@/client/components/page-header";
import { Pager } from "@/client/components/pager";
import { usePageClamp } from "@/client/lib/use-page-clamp";
import { PastLastPage } from "@/client/components/past-last-page";

import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";

const CHART_DAYS = 30;

const ExceptionsSearch = z.object({
  projectId: projectIdParam,
  page: pageParam,
  size: sizeParam(ISSUE_EXCEPTIONS_PAGE_SIZE),
  /** Narrows the chart and the list alike. */
  environments: environmentsParam,
});
type ExceptionsSearch = z.output<typeof ExceptionsSearch>;

export const Route = createFileRoute("/_authenticated/dashboard/exceptions/")({
  validateSearch: (search: z.input<typeof ExceptionsSearch> & SearchSchemaInput) => ExceptionsSearch.parse(search),
  search: { middlewares: [stripSearchParams({ page: 1, size: ISSUE_EXCEPTIONS_PAGE_SIZE })] },
  loaderDeps: ({ search }) => search,
  loader: async (args) => {
    const { context, deps } = args;
    const firstProjectId = await firstProjectToRedirectTo(args, deps.projectId);
    if (firstProjectId) throw redirect({ to: "/dashboard/exceptions", search: { ...deps, projectId: firstProjectId }, replace: true });
  },
  component: ExceptionsScreen,
  errorComponent: ExceptionsErrorView,
});

function ExceptionsScreen() {
  const search = Route.useSearch();
  return (
    <ProjectScopedScreen title="Exceptions" projectId={search.projectId}>
      {(project, projects) => <ExceptionsOverview project={project} projects={projects} search={search} />}
    </ProjectScopedScreen>
  );
}

function ExceptionsOverview({ project, projects, search }: { project: ProjectView; projects: ProjectView[]; search: ExceptionsSearch }) {
  const navigate = useNavigate({ from: Route.fullPath });
  const update = (changes: Partial<ExceptionsSearch>) => void navigate({ search: (previous) => ({ ...previous, ...changes, page: changes.page ?? 1 }) });
  const stats = trpc.stats.daily.useQuery({ projectId: project.id, environments: search.environments, ...lastDays(CHART_DAYS) });
  const exceptions = trpc.exception.list.useQuery(
    { projectId: project.id, environments: search.environments, page: search.page, size: search.size },
    { placeholderData: keepPreviousData },
  );
  const pastEnd = usePageClamp(
    exceptions.isPlaceholderData ? undefined : exceptions.data?.meta,
    search.page,
    (page) => void navigate({ search: (previous) => ({ ...previous, page }), replace: true }),
  );

  return (
    <>
      <PageHeader
        title="Exceptions"
        description={`Every occurrence sent to ${project.name}.`}
        actions={<ProjectSelect projects={projects} value={project.id} onChange={(projectId) => update({ projectId })} />}
      />
      <div className="grid gap-6 grid-cols-[minmax(0,1fr)]">
        {/* Above both: it narrows the chart and the list. */}
        <EnvironmentFilter value={search.environments} onChange={(environments) => update({ environments })} />
        <Card className="gap-4">
          <CardHeader>
            <CardTitle>Occurrences per day</CardTitle>
            <CardDescription>Last {CHART_DAYS} days (UTC)</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3">
            <OccurrenceChart data={stats.data} isPending={stats.isPending} error={stats.error} onRetry={() => void stats.refetch()} />
          </CardContent>
        </Card>
        <div className="grid gap-3">
          <h2 className="text-lg font-semibold" data-testid="latest-exceptions-heading">
            Latest exceptions
            {search.environments?.length ? (
              <span className="text-sm font-normal text-muted-foreground">
                {" "}
                · {search.environments.map((environment) => ENVIRONMENT_LABELS[environment]).join(", ")}
              </span>
            ) : null}
          </h2>
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
                  <NotFoundView type="project" />
                ) : (
                  <QueryErrorAlert error={exceptions.error} onRetry={() => void exceptions.refetch()} title="Could not load the exceptions" />
                )}
              </div>
            ) : pastEnd ? (
              <PastLastPage />
            ) : exceptions.data.items.length === 0 ? (
              <p className="px-4 py-10 text-center text-sm text-muted-foreground" data-testid="exceptions-empty">
                {search.environments?.length
                  ? "No exceptions in these environments."
                  : `No exceptions yet. Errors sent with ${project.name}'s DSN show up here.`}
              </p>
            ) : (
              <ExceptionsTable exceptions={exceptions.data.items} projectId={project.id} />
            )}
          </Card>
          {exceptions.data && exceptions.data.meta.totalItems > 0 && !pastEnd ? (
            <Pager meta={exceptions.data.meta} onPageChange={(page) => update({ page })} onSizeChange={(size) => update({ size })} />
          ) : null}
        </div>
      </div>
    </>
  );
}

function ExceptionsErrorView(props: ErrorComponentProps) {
  return (
    <>
      <PageHeader title="Exceptions" />
      <ErrorView {...props} description="The exceptions could not be loaded." />
    </>
  );
}
