import { useState } from "react";
import { KeyRoundIcon, Loader2Icon, PlusIcon, RefreshCwIcon, BanIcon, StarIcon } from "lucide-react";
import { usePermissions } from "@/client/lib/use-permissions";
import { trpc, type ProjectView } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { CopyButton } from "@/client/components/copy-button";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { Badge } from "@/client/components/ui/badge";
import { FormField } from "@/client/components/form-field";
import { Button } from "@/client/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/client/components/ui/dialog";
import { Input } from "@/client/components/ui/input";
import { Label } from "@/client/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";
import { KEY_REVOCATION_SECONDS } from "@/shared/ingest-keys";

type ProjectKey = ProjectView["keys"][number];

/** A key mutation that keeps the project's cached view in step with its answer. */
function useKeyMutation<TInput extends { projectId: string }>(call: (input: TInput) => Promise<ProjectView>, success: (input: TInput) => string) {
  const utils = trpc.useUtils();
  return useToastMutation(call, {
    refresh: async (project, { projectId }) => {
      utils.project.get.setData({ projectId }, project);
      await utils.project.list.invalidate();
    },
    success: (_project, input) => success(input),
  });
}

export function ProjectKeysCard({ project }: { project: ProjectView }) {
  const canManage = usePermissions().can("project:keys");
  const utils = trpc.useUtils();
  const create = useKeyMutation(utils.client.project.createKey.mutate, ({ label }) => `Key ${label} created`);
  // The primary key first, then other active keys; revoked ones stay listed so a user can tell why an old DSN stopped working.
  const rank = (key: ProjectKey) => (key.isPrimary ? 0 : key.revokedAt ? 2 : 1);
  const keys = [...project.keys].sort((a, b) => rank(a) - rank(b));
  const primary = project.keys.find((key) => key.isPrimary);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Client keys</CardTitle>
        <CardDescription>Sentry SDKs use the DSN; the native SDK sends the same key as its x-api-key header.</CardDescription>
        {canManage ? (
          <CardAction>
            <CreateKeyDialog
              pending={create.isPending}
              onCreate={async (label) => {
                await create.mutateAsync({ projectId: project.id, label });
              }}
            />
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="grid gap-2">
          <Label>DSN{primary ? <span className="font-normal text-muted-foreground"> · primary key “{primary.label}”</span> : null}</Label>
          <div className="flex items-center gap-2 rounded-md border bg-muted/50 px-3 py-2">
            <code data-testid="project-dsn" className="flex-1 font-mono text-sm break-all">
              {project.dsn ?? "No active key: create one to get a DSN."}
            </code>
            {project.dsn ? <CopyButton value={project.dsn} label="DSN" testId="copy-dsn" /> : null}
          </div>
        </div>
        {project.apiKey ? (
          <div className="grid gap-2">
            <Label>API key (x-api-key)</Label>
            <div className="flex items-center gap-2 rounded-md border bg-muted/50 px-3 py-2">
              <code data-testid="project-api-key" className="flex-1 font-mono text-sm break-all">
                {project.apiKey}
              </code>
              <CopyButton value={project.apiKey} label="API key" />
            </div>
          </div>
        ) : null}
        <Table data-testid="project-keys">
          <TableHeader>
            <TableRow>
              <TableHead>Label</TableHead>
              <TableHead>DSN</TableHead>
              <TableHead className="hidden sm:table-cell">Created</TableHead>
              <TableHead>Status</TableHead>
              {canManage ? (
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              ) : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {keys.map((key) => (
              <KeyRow key={key.id} projectKey={key} projectId={project.id} canManage={canManage} />
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

function KeyRow({ projectKey, projectId, canManage }: { projectKey: ProjectKey; projectId: string; canManage: boolean }) {
  const utils = trpc.useUtils();
  const makePrimary = useKeyMutation(utils.client.project.setPrimaryKey.mutate, () => `${projectKey.label} is now the primary key`);
  const rotate = useKeyMutation(utils.client.project.rotateKey.mutate, () => "Key rotated: update your SDK configuration with the new DSN");
  const revoke = useKeyMutation(utils.client.project.revokeKey.mutate, () => "Key revoked");
  const revoked = Boolean(projectKey.revokedAt);
  return (
    <TableRow
      className={revoked ? "text-muted-foreground" : undefined}
      data-testid="project-key-row"
      data-key-id={projectKey.id}
      data-primary={projectKey.isPrimary ? "true" : undefined}
    >
      <TableCell className="font-medium">
        <span className="flex items-center gap-2">
          <KeyRoundIcon className="size-4 text-muted-foreground" aria-hidden /> {projectKey.label}
        </span>
      </TableCell>
      <TableCell className="max-w-72">
        <span className="flex items-center gap-1">
          <code className="truncate font-mono text-xs">{projectKey.dsn}</code>
          {revoked ? null : <CopyButton value={projectKey.dsn} label="DSN" />}
        </span>
      </TableCell>
      <TableCell className="hidden sm:table-cell">{projectKey.createdAt.toLocaleDateString()}</TableCell>
      <TableCell>
        <span className="flex flex-wrap gap-1">
          {revoked ? <Badge variant="outline">Revoked {projectKey.revokedAt?.toLocaleDateString()}</Badge> : <Badge variant="success">Active</Badge>}
          {projectKey.isPrimary ? (
            <Badge variant="secondary" data-testid="primary-key-badge" title="The project's DSN is this key's">
              Primary
            </Badge>
          ) : null}
        </span>
      </TableCell>
      {canManage ? (
        <TableCell className="text-right">
          {revoked ? null : (
            <span className="inline-flex flex-wrap justify-end gap-1">
              {projectKey.isPrimary ? null : (
                <ConfirmDialog
                  title={`Make ${projectKey.label} the primary key?`}
                  description="The project's DSN, API key and setup snippets will show this key. SDKs configured with the other keys keep working."
                  confirmLabel="Make primary"
                  onConfirm={() => makePrimary.mutateAsync({ projectId, keyId: projectKey.id })}
                  trigger={
                    <Button variant="ghost" size="sm" data-testid="make-primary-key">
                      <StarIcon /> Make primary
                    </Button>
                  }
                />
              )}
              <ConfirmDialog
                title={`Rotate ${projectKey.label}?`}
                description={`A new key replaces this one right away. SDKs still configured with the old DSN or API key are refused within ${KEY_REVOCATION_SECONDS} seconds, until you update them.`}
                confirmLabel="Rotate key"
                onConfirm={() => rotate.mutateAsync({ projectId, keyId: projectKey.id })}
                trigger={
                  <Button variant="ghost" size="sm" data-testid="rotate-key">
                    <RefreshCwIcon /> Rotate
                  </Button>
                }
              />
              <ConfirmDialog
                title={`Revoke ${projectKey.label}?`}
                description={`SDKs using this key are refused within ${KEY_REVOCATION_SECONDS} seconds. A project keeps at least one active key.`}
                confirmLabel="Revoke key"
                destructive
                onConfirm={() => revoke.mutateAsync({ projectId, keyId: projectKey.id })}
                trigger={
                  <Button variant="ghost" size="sm" className="text-destructive" data-testid="revoke-key">
                    <BanIcon /> Revoke
                  </Button>
                }
              />
            </span>
          )}
        </TableCell>
      ) : null}
    </TableRow>
  );
}

function CreateKeyDialog({ onCreate, pending }: { onCreate: (label: string) => Promise<void>; pending: boolean }) {
  const [open, setOpen] = useState(false);
  const [label, setLabel] = useState("");
  const trimmed = label.trim();
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!trimmed) return;
    try {
      await onCreate(trimmed);
      setOpen(false);
      setLabel("");
    } catch {
      // The mutation's onError already showed the server's message.
    }
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" data-testid="create-key">
          <PlusIcon /> New key
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={(event) => void submit(event)} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>New client key</DialogTitle>
            <DialogDescription>Use separate keys per application or environment, so you can rotate one without touching the others.</DialogDescription>
          </DialogHeader>
          <FormField id="new-key-label" label="Label">
            <Input
              id="new-key-label"
              data-testid="new-key-label"
              maxLength={60}
              placeholder="Production web"
              value={label}
              onChange={(event) => setLabel(event.target.value)}
            />
          </FormField>
          <DialogFooter>
            <Button type="submit" disabled={!trimmed || pending} data-testid="new-key-submit">
              {pending ? <Loader2Icon className="animate-spin" /> : null}
              Create key
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
