import { createFileRoute, Link, stripSearchParams, useNavigate, type ErrorComponentProps, type SearchSchemaInput } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { ArrowRightIcon, MailIcon, PlusIcon } from "lucide-react";
import { trpc } from "@/client/lib/trpc";
import { loadProjects } from "@/client/lib/project-loader";
import { userInvitationsQueryOptions } from "@/client/lib/organization";
import { useFullOrganization } from "@/client/lib/use-organization";
import { usePermissions } from "@/client/lib/use-permissions";
import { useRequiredSession } from "@/client/lib/session";
import { PageHeader } from "@/client/components/page-header";
import { NotFoundView } from "@/client/components/not-found-view";
import { ErrorView } from "@/client/components/error-view";
import { Button } from "@/client/components/ui/button";
import { Skeleton } from "@/client/components/ui/skeleton";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { ProjectOverviewCard } from "./-project-overview-card";
import { DashboardSearch, DEFAULT_TOP_ISSUES, type DashboardSearchInput } from "./-dashboard-search";

export const Route = createFileRoute("/_authenticated/dashboard/")({
  validateSearch: (search: DashboardSearchInput & SearchSchemaInput) => DashboardSearch.parse(search),
  search: { middlewares: [stripSearchParams({ top: DEFAULT_TOP_ISSUES })] },
  loader: async ({ context }) => {
    // The charts and top issues load beside the project list; the cards show their own states.
    if (context.activeOrganizationId) void context.trpc.project.overview.prefetch();
    await loadProjects(context.trpc, context.activeOrganizationId);
  },
  component: DashboardScreen,
  errorComponent: DashboardErrorView,
  notFoundComponent: DashboardNotFoundView,
});

function DashboardScreen() {
  const { activeOrganizationId } = Route.useRouteContext();
  if (!activeOrganizationId) {
    return (
      <>
        <PageHeader title="Dashboard" />
        <NotFoundView type="organization" />
      </>
    );
  }
  return <OrganizationDashboard />;
}

function OrganizationDashboard() {
  const organization = useFullOrganization();
  const projects = trpc.project.list.useQuery();
  const overview = trpc.project.overview.useQuery();
  const overviewByProject = new Map((overview.data ?? []).map((entry) => [entry.projectId, entry]));
  const canCreateProjects = usePermissions().can("project:create");
  const { top } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });

  return (
    <>
      <PageHeader
        title="Dashboard"
        description={organization.data ? `Projects of ${organization.data.name}` : <Skeleton className="h-4 w-40" />}
        actions={
          canCreateProjects && projects.data?.length ? (
            <Button asChild>
              <Link to="/dashboard/projects/new">
                <PlusIcon /> New project
              </Link>
            </Button>
          ) : null
        }
      />
      <PendingInvitationsBanner />
      {projects.isPending ? (
        <ProjectCardsSkeleton />
      ) : projects.error ? (
        <QueryErrorAlert error={projects.error} onRetry={() => void projects.refetch()} />
      ) : projects.data.length === 0 ? (
        <NotFoundView type="projects" />
      ) : (
        <>
          {overview.error ? (
            <div className="mb-4">
              <QueryErrorAlert error={overview.error} onRetry={() => void overview.refetch()} title="Could not load the occurrence overview" />
            </div>
          ) : null}
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" data-testid="project-cards">
            {projects.data.map((project) => (
              <ProjectOverviewCard
                key={project.id}
                project={project}
                overview={overviewByProject.get(project.id)}
                overviewPending={overview.isPending}
                ordering={top}
                onOrderingChange={(next) => void navigate({ search: { top: next }, replace: true })}
              />
            ))}
          </div>
        </>
      )}
    </>
  );
}

/** Invitations to other organizations are easy to miss once the user already has one. */
function PendingInvitationsBanner() {
  const { user } = useRequiredSession();
  const invitations = useQuery({ ...userInvitationsQueryOptions(), enabled: user.emailVerified, retry: false });
  const count = invitations.data?.length ?? 0;
  if (count === 0) return null;
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border bg-muted/40 px-4 py-3 text-sm">
      <span className="flex items-center gap-2">
        <MailIcon className="size-4 text-muted-foreground" aria-hidden />
        You have {count} pending {count === 1 ? "invitation" : "invitations"} to join an organization.
      </span>
      <Button asChild size="sm" variant="outline">
        <Link to="/dashboard/invites">
          Review <ArrowRightIcon />
        </Link>
      </Button>
    </div>
  );
}

function ProjectCardsSkeleton() {
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-busy>
      {[0, 1, 2].map((index) => (
        <Skeleton key={index} className="h-80 rounded-xl" />
      ))}
    </div>
  );
}

function DashboardErrorView(props: ErrorComponentProps) {
  return <ErrorView {...props} description="The dashboard could not be loaded." />;
}

function DashboardNotFoundView() {
  return (
    <>
      <PageHeader title="Dashboard" />
      <NotFoundView />
    </>
  );
}
