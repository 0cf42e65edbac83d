import { useNavigate } from "@tanstack/react-router";
import { Trash2Icon } from "lucide-react";
import { trpc, type ProjectView } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { Button } from "@/client/components/ui/button";
import { KEY_REVOCATION_SECONDS } from "@/shared/ingest-keys";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";

export function DeleteProjectCard({ project }: { project: ProjectView }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  // A refusal rejects mutateAsync too, so the confirmation dialog stays open for another try.
  const remove = useToastMutation(() => utils.client.project.delete.mutate({ projectId: project.id }), {
    success: `Project ${project.name} deleted`,
    onSuccess: async () => {
      await navigate({ to: "/dashboard/projects" });
      utils.project.get.setData({ projectId: project.id }, undefined);
      await utils.project.list.invalidate();
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
          description={`Every SDK sending to this project's DSN is refused within ${KEY_REVOCATION_SECONDS} seconds, and its issues and events are removed for good.`}
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
