import { createFileRoute, redirect, stripSearchParams, useNavigate, type ErrorComponentProps, type SearchSchemaInput } from "@tanstack/react-router";
import { keepPreviousData } from "@tanstack/react-query";
import { RELEASES_PAGE_SIZE } from "@/shared/release.inputs";
import { trpc, trpcErrorCode, type ProjectView } from "@/client/lib/trpc";
import { firstProjectToRedirectTo } from "@/client/lib/project-loader";
import { usePageClamp } from "@/client/lib/use-page-clamp";
import { ProjectScopedScreen } from "@/client/components/project-scoped-screen";
import { ProjectSelect } from "@/client/components/project-select";
import { ErrorView } from "@/client/components/error-view";
import { NotFoundView } from "@/client/components/not-found-view";
import { PageHeader } from "@/client/components/page-header";
import { Pager } from "@/client/components/pager";
import { PastLastPage } from "@/client/components/past-last-page";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Card } from "@/client/components/ui/card";
import { Label } from "@/client/components/ui/label";
import { NativeSelect } from "@/client/components/ui/select";
import { Skeleton } from "@/client/components/ui/skeleton";
import { ReleasesSearch, type ReleasesSearchInput } from "./-releases-search";
import { ReleasesTable } from "./-releases-table";
import { ReleasesEmptyState } from "./-releases-empty-state";

export const Route = createFileRoute("/_authenticated/dashboard/releases/")({
  validateSearch: (search: ReleasesSearchInput & SearchSchemaInput) => ReleasesSearch.parse(search),
  search: { middlewares: [stripSearchParams({ status: "open", page: 1, size: RELEASES_PAGE_SIZE })] },
  loaderDeps: ({ search }) => search,
  loader: async (args) => {
    const firstProjectId = await firstProjectToRedirectTo(args, args.deps.projectId);
    if (firstProjectId) throw redirect({ to: "/dashboard/releases", search: { ...args.deps, projectId: firstProjectId }, replace: true });
  },
  component: ReleasesScreen,
  errorComponent: ReleasesErrorView,
});

function ReleasesScreen() {
  const search = Route.useSearch();
  return (
    <ProjectScopedScreen title="Releases" projectId={search.projectId}>
      {(project, projects) => <ReleaseList project={project} projects={projects} search={search} />}
    </ProjectScopedScreen>
  );
}

function ReleaseList({ project, projects, search }: { project: ProjectView; projects: ProjectView[]; search: ReleasesSearch }) {
  const navigate = useNavigate({ from: Route.fullPath });
  const update = (changes: Partial<ReleasesSearch>) => void navigate({ search: (previous) => ({ ...previous, ...changes, page: changes.page ?? 1 }) });
  const releases = trpc.release.list.useQuery(
    { projectId: project.id, environment: search.environment, status: search.status, page: search.page, size: search.size },
    { placeholderData: keepPreviousData },
  );
  const environments = trpc.release.environments.useQuery({ projectId: project.id });
  const filtered = Boolean(search.environment) || search.status !== "open";
  const pastEnd = usePageClamp(
    releases.isPlaceholderData ? undefined : releases.data?.meta,
    search.page,
    (page) => void navigate({ search: (previous) => ({ ...previous, page }), replace: true }),
  );
  // A bookmarked environment the project no longer reports stays choosable, so the filter never lies.
  const environmentNames = [...new Set([...(environments.data ?? []), ...(search.environment ? [search.environment] : [])])];

  return (
    <>
      <PageHeader
        title="Releases"
        description={`Versions of ${project.name}: their health from sessions, the issues they brought and where they were deployed.`}
        actions={<ProjectSelect projects={projects} value={project.id} onChange={(projectId) => update({ projectId, environment: undefined })} />}
      />
      <div className="grid gap-4 grid-cols-[minmax(0,1fr)]">
        <div className="flex flex-wrap items-end gap-4">
          <div className="grid gap-1.5">
            <Label htmlFor="release-environment">Environment</Label>
            <NativeSelect
              id="release-environment"
              value={search.environment ?? ""}
              onChange={(event) => update({ environment: event.target.value || undefined })}
              data-testid="release-environment"
            >
              <option value="">All environments</option>
              {environmentNames.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="release-status">Show</Label>
            <NativeSelect
              id="release-status"
              value={search.status}
              onChange={(event) => update({ status: event.target.value as ReleasesSearch["status"] })}
              data-testid="release-status"
            >
              <option value="open">Open releases</option>
              <option value="archived">Archived releases</option>
              <option value="all">All releases</option>
            </NativeSelect>
          </div>
        </div>
        <Card className="gap-0 py-0">
          {releases.isPending ? (
            <div className="grid gap-2 p-4" aria-busy>
              {Array.from({ length: 5 }, (_, index) => (
                <Skeleton key={index} className="h-9" />
              ))}
            </div>
          ) : releases.error ? (
            <div className="p-4">
              {trpcErrorCode(releases.error) === "NOT_FOUND" ? (
                <NotFoundView type="project" />
              ) : (
                <QueryErrorAlert error={releases.error} onRetry={() => void releases.refetch()} title="Could not load the releases" />
              )}
            </div>
          ) : pastEnd ? (
            <PastLastPage />
          ) : releases.data.items.length === 0 ? (
            <ReleasesEmptyState project={project} filtered={filtered} />
          ) : (
            <div className="overflow-x-auto">
              <ReleasesTable releases={releases.data.items} projectId={project.id} environment={search.environment} />
            </div>
          )}
        </Card>
        {releases.data && releases.data.meta.totalItems > 0 && !pastEnd ? (
          <Pager meta={releases.data.meta} onPageChange={(page) => update({ page })} onSizeChange={(size) => update({ size })} />
        ) : null}
      </div>
    </>
  );
}

function ReleasesErrorView(props: ErrorComponentProps) {
  return (
    <>
      <PageHeader title="Releases" />
      <ErrorView {...props} description="The releases could not be loaded." />
    </>
  );
}
