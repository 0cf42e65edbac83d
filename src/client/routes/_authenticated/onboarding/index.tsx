import { useState } from "react";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { Logo } from "@/client/components/logo";
import { ThemeToggle } from "@/client/components/theme-toggle";
import { UserMenu } from "@/client/components/user-menu";
import { CreateProjectForm } from "@/client/components/project-form";
import { InvitationList } from "@/client/components/invitation-list";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { useDocumentTitle } from "@/client/lib/use-document-title";
import { CreateOrganizationForm } from "./-create-organization-form";

export const Route = createFileRoute("/_authenticated/onboarding/")({
  component: OnboardingScreen,
});

type Step = "organization" | "project";

function OnboardingScreen() {
  useDocumentTitle("Get started");
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>("organization");
  const [organizationName, setOrganizationName] = useState("");

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
              <CreateOrganizationForm
                onCreated={(organization) => {
                  setOrganizationName(organization.name);
                  setStep("project");
                }}
              />
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
