import { trpc, trpcErrorCode } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Checkbox } from "@/client/components/ui/checkbox";
import { Label } from "@/client/components/ui/label";
import { Skeleton } from "@/client/components/ui/skeleton";

/** The caller's own choice, per project of the active organization, to get its alert emails. */
export function AlertEmailsCard() {
  const projects = trpc.project.list.useQuery();
  return (
    <Card data-testid="alert-emails">
      <CardHeader>
        <CardTitle>Alert emails</CardTitle>
        <CardDescription>Projects of your active organization whose alert emails you get. Webhooks and chat alerts are not affected.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {projects.isPending ? <Skeleton className="h-10" /> : null}
        {projects.error && trpcErrorCode(projects.error) === "NOT_FOUND" ? (
          <p className="text-sm text-muted-foreground">Join or create an organization to get its alerts.</p>
        ) : projects.error ? (
          <QueryErrorAlert error={projects.error} onRetry={() => void projects.refetch()} />
        ) : null}
        {projects.data?.length === 0 ? <p className="text-sm text-muted-foreground">No projects in this organization yet.</p> : null}
        {projects.data?.map((project) => (
          <ProjectOptOut key={project.id} projectId={project.id} name={project.name} />
        ))}
      </CardContent>
    </Card>
  );
}

function ProjectOptOut({ projectId, name }: { projectId: string; name: string }) {
  const utils = trpc.useUtils();
  const optOut = trpc.alert.emailOptOut.useQuery({ projectId });
  const set = useToastMutation(utils.client.alert.setEmailOptOut.mutate, { refresh: (data) => utils.alert.emailOptOut.setData({ projectId }, data) });
  const id = `alert-emails-${projectId}`;
  return (
    <div className="flex items-center gap-2">
      <Checkbox
        id={id}
        checked={optOut.data ? !optOut.data.optedOut : true}
        disabled={!optOut.data || set.isPending}
        onCheckedChange={(checked) => set.mutate({ projectId, optedOut: checked !== true })}
      />
      <Label htmlFor={id}>{name}</Label>
    </div>
  );
}
