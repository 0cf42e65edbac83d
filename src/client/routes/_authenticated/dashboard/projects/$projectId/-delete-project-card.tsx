import { useNavigate } from "@tanstack/react-router";
import { Trash2Icon } from "lucide-react";
import { trpc, type ProjectView } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { Button } from "@/client/components/ui/button";
import { KEY_REVOCATION_SECONDS } from "@/shared/ingest-keys";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";

const counted = (count: number, noun: string) => `${count.toLocaleString("en")} ${noun}${count === 1 ? "" : "s"}`;

export function DeleteProjectCard({ project }: { project: ProjectView }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  // What the confirmation names: how many issues and occurrences go with the project.
  const impact = trpc.deletion.projectImpact.useQuery({ projectId: project.id });
  const goes = impact.data
    ? ` Its ${counted(impact.data.issues, "issue")} and ${counted(impact.data.occurrences, "occurrence")} are removed for good (progress under Organization settings → Deletions).`
    : " Its issues and occurrences are removed for good.";
  // A refusal rejects mutateAsync too, so the confirmation dialog stays open for another try.
  const remove = useToastMutation(() => utils.client.project.delete.mutate({ projectId: project.id }), {
    success: `Project ${project.name} deleted`,
    onSuccess: async () => {
      await navigate({ to: "/dashboard/projects" });
      utils.project.get.setData({ projectId: project.id }, undefined);
      await Promise.all([utils.project.list.invalidate(), utils.deletion.list.invalidate()]);
    },
  });

  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>Delete project</CardTitle>
        <CardDescription>Deletes the project with its keys, issues and events. This cannot be undone.</CardDescription>
      </CardHeader>
      <CardContent>
        <ConfirmDialog
          title={`Delete ${project.name}?`}
          description={`Every SDK sending to this project's DSN is refused within ${KEY_REVOCATION_SECONDS} seconds.${goes}`}
          confirmLabel="Delete project"
          destructive
          confirmText={project.name}
          onConfirm={() => remove.mutateAsync(undefined)}
          testId="delete-project-dialog"
          trigger={
            <Button variant="destructive" data-testid="delete-project">
              <Trash2Icon /> Delete project
            </Button>
          }
        />
      </CardContent>
    </Card>
  );
}
