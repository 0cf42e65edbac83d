import { createFileRoute, redirect, stripSearchParams, useNavigate, type ErrorComponentProps, type SearchSchemaInput } from "@tanstack/react-router";
import { keepPreviousData } from "@tanstack/react-query";
import { EVENTS_PAGE_SIZE } from "@/shared/constants";
import { trpc, trpcErrorCode, type ProjectView } from "@/client/lib/trpc";
import { endOfDay, startOfDay } from "@/client/lib/format";
import { firstProjectToRedirectTo } from "@/client/lib/project-loader";
import { ProjectScopedScreen } from "@/client/components/project-scoped-screen";
import { ProjectSelect } from "@/client/components/project-select";
import { ErrorView } from "@/client/components/error-view";
import { NotFoundView } from "@/client/components/not-found-view";
import { PageHeader } from "@/client/components/page-header";
import { Pager } from "@/client/components/pager";
import { usePageClamp } from "@/client/lib/use-page-clamp";
import { PastLastPage } from "@/client/components/past-last-page";

import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Card } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";
import { DEFAULT_EVENT_SORT, EventsSearch, type EventsSearchInput } from "./-events-search";
import { EventFilters } from "./-event-filters";
import { EventsTable } from "./-events-table";

export const Route = createFileRoute("/_authenticated/dashboard/events/")({
  validateSearch: (search: EventsSearchInput & SearchSchemaInput) => EventsSearch.parse(search),
  search: { middlewares: [stripSearchParams({ sort: DEFAULT_EVENT_SORT, page: 1, size: EVENTS_PAGE_SIZE })] },
  loaderDeps: ({ search }) => search,
  loader: async (args) => {
    const { context, deps } = args;
    const firstProjectId = await firstProjectToRedirectTo(args, deps.projectId);
    if (firstProjectId) throw redirect({ to: "/dashboard/events", search: { ...deps, projectId: firstProjectId }, replace: true });
  },
  component: EventsScreen,
  errorComponent: EventsErrorView,
});

function EventsScreen() {
  const search = Route.useSearch();
  return (
    <ProjectScopedScreen title="Events" projectId={search.projectId}>
      {(project, projects) => <EventList project={project} projects={projects} search={search} />}
    </ProjectScopedScreen>
  );
}

function EventList({ project, projects, search }: { project: ProjectView; projects: ProjectView[]; search: EventsSearch }) {
  const navigate = useNavigate({ from: Route.fullPath });
  const update = (changes: Partial<EventsSearch>) => void navigate({ search: (previous) => ({ ...previous, ...changes, page: changes.page ?? 1 }) });
  const events = trpc.event.list.useQuery(
    {
      projectId: project.id,
      page: search.page,
      size: search.size,
      sort: search.sort,
      name: search.name || undefined,
      dateFrom: search.from ? startOfDay(search.from) : undefined,
      dateTo: search.to ? endOfDay(search.to) : undefined,
    },
    { placeholderData: keepPreviousData },
  );
  const filtered = Boolean(search.name || search.from || search.to);
  const pastEnd = usePageClamp(
    events.isPlaceholderData ? undefined : events.data?.meta,
    search.page,
    (page) => void navigate({ search: (previous) => ({ ...previous, page }), replace: true }),
  );

  return (
    <>
      <PageHeader
        title="Events"
        description={`Custom events sent to ${project.name}.`}
        actions={<ProjectSelect projects={projects} value={project.id} onChange={(projectId) => update({ projectId })} />}
      />
      <div className="grid gap-4 grid-cols-[minmax(0,1fr)]">
        <EventFilters search={search} onChange={update} />
        <Card className="gap-0 py-0">
          {events.isPending ? (
            <div className="grid gap-2 p-4" aria-busy>
              {Array.from({ length: 5 }, (_, index) => (
                <Skeleton key={index} className="h-7" />
              ))}
            </div>
          ) : events.error ? (
            <div className="p-4">
              {trpcErrorCode(events.error) === "NOT_FOUND" ? (
                <NotFoundView type="project" />
              ) : (
                <QueryErrorAlert error={events.error} onRetry={() => void events.refetch()} title="Could not load the events" />
              )}
            </div>
          ) : pastEnd ? (
            <PastLastPage />
          ) : events.data.items.length === 0 ? (
            <p className="px-4 py-10 text-center text-sm text-muted-foreground" data-testid="events-empty">
              {filtered ? "No events match these filters." : "No events yet."}
            </p>
          ) : (
            <EventsTable events={events.data.items} sort={search.sort} onSort={(sort) => update({ sort })} />
          )}
        </Card>
        {events.data && events.data.meta.totalItems > 0 && !pastEnd ? (
          <Pager meta={events.data.meta} onPageChange={(page) => update({ page })} onSizeChange={(size) => update({ size })} />
        ) : null}
      </div>
    </>
  );
}

function EventsErrorView(props: ErrorComponentProps) {
  return (
    <>
      <PageHeader title="Events" />
      <ErrorView {...props} description="The events could not be loaded." />
    </>
  );
}
