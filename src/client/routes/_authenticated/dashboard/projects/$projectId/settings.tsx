import { createFileRoute, Link, notFound } from "@tanstack/react-router";
import { z } from "zod";
import { ArrowLeftIcon } from "lucide-react";
import { trpc, trpcErrorCode } from "@/client/lib/trpc";
import { followLinkOrNotFound } from "@/client/lib/link-organization";
import { usePermissions } from "@/client/lib/use-permissions";
import { PageHeader } from "@/client/components/page-header";
import { FirstEventWaiting } from "@/client/components/first-event-waiting";
import { NotFoundView } from "@/client/components/not-found-view";
import { PendingView } from "@/client/components/pending-view";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Button } from "@/client/components/ui/button";
import { ProjectGeneralCard } from "./-project-general-card";
import { ProjectKeysCard } from "./-project-keys-card";
import { SetupSnippetsCard } from "./-setup-snippets-card";
import { SourceMapsCard } from "./-source-maps-card";
import { ProjectDataPrivacyCard } from "./-data-privacy-card";
import { DeleteProjectCard } from "./-delete-project-card";
import { AlertRulesCard } from "./-alert-rules-card";
import { AlertLogCard } from "./-alert-log-card";

const ProjectId = z.uuid();

export const Route = createFileRoute("/_authenticated/dashboard/projects/$projectId/settings")({
  loader: async (args) => {
    const { context, params } = args;
    if (!context.activeOrganizationId) return;
    // A malformed id cannot name a project; answer like a missing one.
    if (!ProjectId.safeParse(params.projectId).success) throw notFound();
    try {
      await context.trpc.project.get.ensureData({ projectId: params.projectId });
    } catch (error) {
      if (trpcErrorCode(error) === "NOT_FOUND") await followLinkOrNotFound(args, { kind: "project", id: params.projectId });
      throw error;
    }
  },
  component: ProjectSettingsScreen,
  notFoundComponent: () => (
    <>
      <PageHeader title="Project settings" />
      <NotFoundView type="project" />
    </>
  ),
});

function ProjectSettingsScreen() {
  const { activeOrganizationId } = Route.useRouteContext();
  if (!activeOrganizationId) {
    return (
      <>
        <PageHeader title="Project settings" />
        <NotFoundView type="organization" />
      </>
    );
  }
  return <ProjectSettings />;
}

function ProjectSettings() {
  const { projectId } = Route.useParams();
  const project = trpc.project.get.useQuery({ projectId });
  const { can } = usePermissions();

  if (project.isPending) return <PendingView />;
  if (project.error) {
    if (trpcErrorCode(project.error) === "NOT_FOUND") return <NotFoundView type="project" />;
    return <QueryErrorAlert error={project.error} onRetry={() => void project.refetch()} />;
  }

  return (
    <div className="mx-auto grid max-w-4xl gap-6 grid-cols-[minmax(0,1fr)]">
      <div>
        <Button asChild variant="ghost" size="sm" className="mb-4 -ml-2">
          <Link to="/dashboard/projects">
            <ArrowLeftIcon /> Projects
          </Link>
        </Button>
        <PageHeader title="Project settings" description={project.data.name} />
      </div>
      <FirstEventWaiting project={project.data} />
      <ProjectKeysCard project={project.data} />
      <SetupSnippetsCard project={project.data} />
      <SourceMapsCard project={project.data} />
      <ProjectDataPrivacyCard projectId={project.data.id} />
      <AlertRulesCard projectId={project.data.id} />
      <AlertLogCard projectId={project.data.id} />
      <ProjectGeneralCard project={project.data} />
      {can("project:delete") ? <DeleteProjectCard project={project.data} /> : null}
    </div>
  );
}
