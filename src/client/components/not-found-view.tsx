import { Link } from "@tanstack/react-router";
import { Building2Icon, FolderPlusIcon, FolderSearchIcon, MessageSquareOffIcon, SearchXIcon } from "lucide-react";
import type { ReactNode } from "react";
import { usePermissions } from "@/client/lib/use-permissions";
import { Button } from "./ui/button";

export type NotFoundType = "organization" | "projects" | "project" | "conversation" | "release";

interface Props {
  /** What is missing; without it the plain 'Not Found' view is shown. */
  type?: NotFoundType;
}

const VIEWS: Record<NotFoundType, { icon: ReactNode; title: string; description: string; action: ReactNode }> = {
  organization: {
    icon: <Building2Icon className="size-10 text-muted-foreground" aria-hidden />,
    title: "No organization yet",
    description: "Projects, issues and members belong to an organization. Create one, or accept an invitation to join one.",
    action: (
      <Button asChild>
        <Link to="/onboarding">Create an organization</Link>
      </Button>
    ),
  },
  projects: {
    icon: <FolderPlusIcon className="size-10 text-muted-foreground" aria-hidden />,
    title: "No projects yet",
    description: "Create a project to get a DSN and start sending errors from your application.",
    action: <CreateProjectAction />,
  },
  project: {
    icon: <FolderSearchIcon className="size-10 text-muted-foreground" aria-hidden />,
    title: "Project not found",
    description: "This project does not exist or belongs to another organization.",
    action: (
      <Button asChild variant="outline">
        <Link to="/dashboard/projects">See all projects</Link>
      </Button>
    ),
  },
  release: {
    icon: <SearchXIcon className="size-10 text-muted-foreground" aria-hidden />,
    title: "Release not found",
    description: "This project has no release of that version, or it belongs to another organization.",
    action: (
      <Button asChild variant="outline">
        <Link to="/dashboard/releases">See the releases</Link>
      </Button>
    ),
  },
  conversation: {
    icon: <MessageSquareOffIcon className="size-10 text-muted-foreground" aria-hidden />,
    title: "Conversation not found",
    description: "This conversation does not exist, was deleted, or belongs to someone else.",
    action: (
      <Button asChild variant="outline">
        <Link to="/dashboard/chat">See your conversations</Link>
      </Button>
    ),
  },
};

/** Offered only to a role that may create projects; others are told why instead. */
function CreateProjectAction() {
  const { can, refusal } = usePermissions();
  if (can("project:create")) {
    return (
      <Button asChild>
        <Link to="/dashboard/projects/new">Create a project</Link>
      </Button>
    );
  }
  return refusal("project:create") ? <p className="text-sm text-muted-foreground">{refusal("project:create")}.</p> : null;
}

export function NotFoundView({ type }: Props) {
  if (!type) {
    return (
      <div data-testid="not-found" className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center">
        <SearchXIcon className="size-10 text-muted-foreground" aria-hidden />
        <h1 className="text-xl font-semibold">Not Found</h1>
        <p className="text-sm text-muted-foreground">The page you are looking for does not exist.</p>
        <Button asChild variant="outline">
          <Link to="/">Go home</Link>
        </Button>
      </div>
    );
  }
  const view = VIEWS[type];
  return (
    <div data-testid={`not-found-${type}`} className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center">
      {view.icon}
      <h2 className="text-xl font-semibold">{view.title}</h2>
      <p className="text-sm text-muted-foreground">{view.description}</p>
      {view.action}
    </div>
  );
}
