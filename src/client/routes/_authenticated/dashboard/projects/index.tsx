import { createFileRoute, Link } from "@tanstack/react-router";
import { PlusIcon, SettingsIcon } from "lucide-react";
import { trpc } from "@/client/lib/trpc";
import { loadProjects } from "@/client/lib/project-loader";
import { usePermissions } from "@/client/lib/use-permissions";
import { PageHeader } from "@/client/components/page-header";
import { NotFoundView } from "@/client/components/not-found-view";
import { PlatformBadge } from "@/client/components/platform-badge";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { CopyButton } from "@/client/components/copy-button";
import { Button } from "@/client/components/ui/button";
import { Card } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";

export const Route = createFileRoute("/_authenticated/dashboard/projects/")({
  loader: ({ context }) => loadProjects(context.trpc, context.activeOrganizationId),
  component: ProjectsScreen,
});

function ProjectsScreen() {
  const { activeOrganizationId } = Route.useRouteContext();
  if (!activeOrganizationId) {
    return (
      <>
        <PageHeader title="Projects" />
        <NotFoundView type="organization" />
      </>
    );
  }
  return <ProjectList />;
}

function ProjectList() {
  const projects = trpc.project.list.useQuery();
  const canCreate = usePermissions().can("project:create");

  return (
    <>
      <PageHeader
        title="Projects"
        description="Each project has its own DSN, issues and events."
        actions={
          canCreate && projects.data?.length ? (
            <Button asChild data-testid="new-project">
              <Link to="/dashboard/projects/new">
                <PlusIcon /> New project
              </Link>
            </Button>
          ) : null
        }
      />
      {projects.isPending ? (
        <Skeleton className="h-48 rounded-xl" />
      ) : projects.error ? (
        <QueryErrorAlert error={projects.error} onRetry={() => void projects.refetch()} />
      ) : projects.data.length === 0 ? (
        <NotFoundView type="projects" />
      ) : (
        <Card className="py-2">
          <Table data-testid="project-table">
            <TableHeader>
              <TableRow>
                <TableHead className="pl-4">Name</TableHead>
                <TableHead>Platform</TableHead>
                <TableHead className="hidden md:table-cell">DSN</TableHead>
                <TableHead className="hidden sm:table-cell">Created</TableHead>
                <TableHead className="pr-4 text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {projects.data.map((project) => (
                <TableRow key={project.id}>
                  <TableCell className="pl-4 font-medium">
                    <Link to="/dashboard/projects/$projectId/settings" params={{ projectId: project.id }} className="hover:underline">
                      {project.name}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <PlatformBadge platform={project.platform} />
                  </TableCell>
                  <TableCell className="hidden max-w-80 md:table-cell">
                    {project.dsn ? (
                      <span className="flex items-center gap-1">
                        <code className="truncate font-mono text-xs">{project.dsn}</code>
                        <CopyButton value={project.dsn} label="DSN" />
                      </span>
                    ) : (
                      <span className="text-muted-foreground">No active key</span>
                    )}
                  </TableCell>
                  <TableCell className="hidden text-muted-foreground sm:table-cell">{project.createdAt.toLocaleDateString()}</TableCell>
                  <TableCell className="pr-4 text-right">
                    <Button asChild variant="ghost" size="sm">
                      <Link to="/dashboard/projects/$projectId/settings" params={{ projectId: project.id }}>
                        <SettingsIcon /> Settings
                      </Link>
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
    </>
  );
}
