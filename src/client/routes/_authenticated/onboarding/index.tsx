import { createFileRoute, useNavigate, type SearchSchemaInput } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { Logo } from "@/client/components/logo";
import { ThemeToggle } from "@/client/components/theme-toggle";
import { UserMenu } from "@/client/components/user-menu";
import { CreateProjectForm } from "@/client/components/project-form";
import { InvitationList } from "@/client/components/invitation-list";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { useDocumentTitle } from "@/client/lib/use-document-title";
import { organizationsQueryOptions } from "@/client/lib/organization";
import type { TrpcUtils } from "@/client/lib/trpc";
import { CreateOrganizationForm } from "./-create-organization-form";

const STEPS = ["organization", "project"] as const;
type Step = (typeof STEPS)[number];

const OnboardingSearch = z.object({ step: z.enum(STEPS).optional().catch(undefined) });

export const Route = createFileRoute("/_authenticated/onboarding/")({
  validateSearch: (search: z.input<typeof OnboardingSearch> & SearchSchemaInput) => OnboardingSearch.parse(search),
  loaderDeps: ({ search }) => ({ step: search.step }),
  loader: async ({ context, deps }) => ({ step: await onboardingStep(context, deps.step) }),
  component: OnboardingScreen,
});

/**
 * Where onboarding stands, read from what exists rather than kept in the screen (issue 37, item
 * 10: a reload started over at the organization form, and submitting it again made a second
 * organization). Without an organization, the first step. Once this screen created one, the URL
 * says `step=project` (and `step=organization` when the user asked for another organization).
 * Without either, an active organization that has no project yet continues at its first project.
 */
async function onboardingStep(context: { trpc: TrpcUtils; activeOrganizationId: string | null }, requested: Step | undefined): Promise<Step> {
  if (!context.activeOrganizationId) return "organization";
  if (requested) return requested;
  try {
    return (await context.trpc.project.list.ensureData()).length === 0 ? "project" : "organization";
  } catch {
    return "organization"; // the projects are unreadable: offer the first step, as before
  }
}

function OnboardingScreen() {
  useDocumentTitle("Get started");
  const navigate = useNavigate();
  const { step } = Route.useLoaderData();
  const { activeOrganizationId } = Route.useRouteContext();
  const organizations = useQuery({ ...organizationsQueryOptions(), enabled: step === "project" });
  const organizationName = organizations.data?.find((organization) => organization.id === activeOrganizationId)?.name ?? "Your organization";

  return (
    <div className="flex min-h-svh flex-col bg-muted/40">
      <header className="flex items-center justify-between px-6 py-4">
        <Logo />
        <div className="flex items-center gap-1">
          <ThemeToggle />
          <UserMenu />
        </div>
      </header>
      <main className="mx-auto grid w-full max-w-xl gap-6 grid-cols-[minmax(0,1fr)] px-4 py-8">
        <ol className="flex gap-4 text-sm text-muted-foreground" aria-label="Steps">
          <li className={step === "organization" ? "font-medium text-foreground" : undefined}>1. Organization</li>
          <li className={step === "project" ? "font-medium text-foreground" : undefined}>2. First project</li>
        </ol>
        {step === "organization" ? (
          <Card>
            <CardHeader>
              <CardTitle>
                <h1 className="text-xl">Create your organization</h1>
              </CardTitle>
              <CardDescription>Projects, issues and members live in an organization. You can invite your team afterwards.</CardDescription>
            </CardHeader>
            <CardContent>
              <CreateOrganizationForm onCreated={() => void navigate({ to: "/onboarding", search: { step: "project" }, replace: true })} />
            </CardContent>
          </Card>
        ) : (
          <Card>
            <CardHeader>
              <CardTitle>
                <h1 className="text-xl">Create your first project</h1>
              </CardTitle>
              <CardDescription>{organizationName} is ready. A project gives you a DSN to send errors to.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              <CreateProjectForm onCreated={(project) => navigate({ to: "/dashboard/projects/$projectId/settings", params: { projectId: project.id } })} />
              <Button variant="link" className="justify-self-start px-0" onClick={() => void navigate({ to: "/dashboard" })}>
                Skip for now
              </Button>
            </CardContent>
          </Card>
        )}
        <Card>
          <CardHeader>
            <CardTitle>Invitations</CardTitle>
            <CardDescription>Joining your team's organization instead? Accept its invitation here.</CardDescription>
          </CardHeader>
          <CardContent>
            <InvitationList emptyText="No pending invitations for your email address." />
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
