import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import { useFullOrganization } from "@/client/lib/use-organization";
import { usePermissions } from "@/client/lib/use-permissions";
import { PageHeader } from "@/client/components/page-header";
import { NotFoundView } from "@/client/components/not-found-view";
import { CreateProjectForm } from "@/client/components/project-form";
import { FormError } from "@/client/components/form-alert";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";

export const Route = createFileRoute("/_authenticated/dashboard/projects/new")({
  component: NewProjectScreen,
});

function NewProjectScreen() {
  const { activeOrganizationId } = Route.useRouteContext();
  const navigate = useNavigate();
  const organization = useFullOrganization();
  const refused = usePermissions().refusal("project:create");

  if (!activeOrganizationId) {
    return (
      <>
        <PageHeader title="New project" />
        <NotFoundView type="organization" />
      </>
    );
  }

  return (
    <div className="mx-auto max-w-2xl">
      <Button asChild variant="ghost" size="sm" className="mb-4 -ml-2">
        <Link to="/dashboard/projects">
          <ArrowLeftIcon /> Projects
        </Link>
      </Button>
      <PageHeader title="New project" description={organization.data ? `In ${organization.data.name}` : undefined} />
      {refused ? (
        <FormError message={`${refused}. Ask someone who can to create it for you.`} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Project details</CardTitle>
            <CardDescription>You get a DSN for the Sentry SDKs and an API key for the native SDK right away.</CardDescription>
          </CardHeader>
          <CardContent>
            <CreateProjectForm onCreated={(project) => navigate({ to: "/dashboard/projects/$projectId/settings", params: { projectId: project.id } })} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}
