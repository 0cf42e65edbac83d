import type { ReactNode } from "react";
import { trpc, type ProjectView } from "@/client/lib/trpc";
import { useActiveOrganizationId } from "@/client/lib/use-organization";
import { useRememberProject } from "@/client/lib/remembered-project";
import { NotFoundView } from "./not-found-view";
import { PageHeader } from "./page-header";
import { PendingView } from "./pending-view";
import { QueryErrorAlert } from "./query-error-alert";

interface Props {
  title: string;
  /** From the URL; the route's loader redirects to the first project when it is missing. */
  projectId: string | undefined;
  children: (project: ProjectView, projects: ProjectView[]) => ReactNode;
}

/**
 * The not-found rules of the project-scoped lists (spec §2, §8): no active organization → type
 * organization, no projects → type projects, a project id that is not one of the organization's →
 * type project. Only a real project reaches `children`.
 */
export function ProjectScopedScreen({ title, projectId, children }: Props) {
  const activeOrganizationId = useActiveOrganizationId();
  const projects = trpc.project.list.useQuery(undefined, { enabled: Boolean(activeOrganizationId) });
  const project = projects.data?.find((candidate) => candidate.id === projectId);
  // Only a project of this organization is remembered, so the next list screen opens on it.
  useRememberProject(project?.id);

  const frame = (body: ReactNode) => (
    <>
      <PageHeader title={title} />
      {body}
    </>
  );

  if (!activeOrganizationId) return frame(<NotFoundView type="organization" />);
  if (projects.isPending) return frame(<PendingView />);
  if (projects.error) return frame(<QueryErrorAlert error={projects.error} onRetry={() => void projects.refetch()} />);
  if (projects.data.length === 0) return frame(<NotFoundView type="projects" />);
  // Redirect to the first project under way (or projects created since the loader ran).
  if (!projectId) return frame(<PendingView />);
  if (!project) return frame(<NotFoundView type="project" />);
  return children(project, projects.data);
}
