import { useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { Trash2Icon } from "lucide-react";
import { trpc, type ProjectView } from "@/client/lib/trpc";
import { errorMessage } from "@/client/lib/api-error";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { Button } from "@/client/components/ui/button";
import { KEY_REVOCATION_SECONDS } from "@/shared/ingest-keys";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";

export function DeleteProjectCard({ project }: { project: ProjectView }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const remove = trpc.project.delete.useMutation();

  const deleteProject = async () => {
    try {
      await remove.mutateAsync({ projectId: project.id });
    } catch (error) {
      toast.error(errorMessage(error));
      throw error;
    }
    toast.success(`Project ${project.name} deleted`);
    await navigate({ to: "/dashboard/projects" });
    utils.project.get.setData({ projectId: project.id }, undefined);
    await utils.project.list.invalidate();
  };

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
          onConfirm={deleteProject}
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
