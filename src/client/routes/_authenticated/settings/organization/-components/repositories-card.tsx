import { useState } from "react";
import { GitBranchIcon, Loader2Icon } from "lucide-react";
import { trpc } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { useZodForm } from "@/client/lib/use-zod-form";
import { usePermissions } from "@/client/lib/use-permissions";
import { formatDateTime } from "@/client/lib/format";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { FormField, invalidProps } from "@/client/components/form-field";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Input } from "@/client/components/ui/input";
import { NativeSelect } from "@/client/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";
import { CreateRepositoryInput } from "@/shared/repository.inputs";

/** Providers offered by the form; the value is stored as written, and sentry-cli reads it back as `provider.id`. */
const PROVIDERS = [
  ["github", "GitHub"],
  ["gitlab", "GitLab"],
  ["bitbucket", "Bitbucket"],
  ["azure_devops", "Azure DevOps"],
] as const;

/**
 * The repositories release commits name (`sentry-cli releases set-commits --commit owner/repo@sha`,
 * `--auto`). Any member sees them; a role with `release:manage` registers and removes them.
 */
export function RepositoriesCard() {
  const { can } = usePermissions();
  const canManage = can("release:manage");
  return (
    <Card id="repositories" data-testid="repositories-card" className="scroll-mt-20">
      <CardHeader>
        <CardTitle>Repositories</CardTitle>
        <CardDescription>
          Name the repositories your releases are built from, as <code>owner/repo</code>, so <code>sentry-cli releases set-commits --auto</code> (which matches
          the URL against your git remote) and <code>--commit owner/repo@sha</code> can attach their commits. <code>--local</code> needs none.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <RepositoryList canManage={canManage} />
        {canManage ? <AddRepositoryForm /> : <p className="text-sm text-muted-foreground">Your role cannot add or remove repositories.</p>}
      </CardContent>
    </Card>
  );
}

function RepositoryList({ canManage }: { canManage: boolean }) {
  const repositories = trpc.repository.list.useQuery();
  const utils = trpc.useUtils();
  const remove = useToastMutation(utils.client.repository.delete.mutate, {
    refresh: () => utils.repository.list.invalidate(),
    success: "Repository removed",
  });
  if (repositories.isPending)
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Loader2Icon className="size-4 animate-spin" /> Loading repositories…
      </p>
    );
  if (repositories.error)
    return <QueryErrorAlert error={repositories.error} onRetry={() => void repositories.refetch()} title="Could not load the repositories" />;
  if (repositories.data.length === 0)
    return (
      <p className="text-sm text-muted-foreground" data-testid="repositories-empty">
        No repositories yet. Commits sent with <code>set-commits --local</code> register theirs on their own.
      </p>
    );
  return (
    <Table data-testid="repositories">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead className="hidden sm:table-cell">Provider</TableHead>
          <TableHead className="hidden md:table-cell">Added</TableHead>
          <TableHead className="text-right">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {repositories.data.map((repository) => (
          <TableRow key={repository.id} data-testid="repository-row">
            <TableCell className="font-medium">
              <span className="flex items-center gap-2">
                <GitBranchIcon className="size-4 text-muted-foreground" aria-hidden /> {repository.name}
              </span>
              {repository.url ? (
                <a href={repository.url} target="_blank" rel="noreferrer noopener" className="block text-xs text-muted-foreground underline break-all">
                  {repository.url}
                </a>
              ) : null}
            </TableCell>
            <TableCell className="hidden sm:table-cell">{PROVIDERS.find(([id]) => id === repository.provider)?.[1] ?? repository.provider ?? "—"}</TableCell>
            <TableCell className="hidden md:table-cell">{formatDateTime(repository.createdAt)}</TableCell>
            <TableCell className="text-right">
              {canManage ? (
                <ConfirmDialog
                  title={`Remove ${repository.name}?`}
                  description="Release commits that named it stay, without their repository. set-commits --commit and --auto stop finding it."
                  confirmLabel="Remove repository"
                  destructive
                  onConfirm={() => remove.mutateAsync({ repositoryId: repository.id })}
                  trigger={
                    <Button variant="ghost" size="sm" className="text-destructive" data-testid="remove-repository">
                      Remove
                    </Button>
                  }
                />
              ) : null}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const INITIAL = { name: "", provider: "", url: "" };

function AddRepositoryForm() {
  const form = useZodForm(CreateRepositoryInput, INITIAL);
  // The server's refusal (a taken name) belongs on the name's own line, not in a toast that fades.
  const [serverError, setServerError] = useState<string | undefined>();
  const utils = trpc.useUtils();
  const create = useToastMutation(utils.client.repository.create.mutate, {
    refresh: () => utils.repository.list.invalidate(),
    success: (repository) => `Repository ${repository.name} added`,
    onSuccess: () => form.reset(),
    onError: setServerError,
  });
  const nameError = form.errors.name ?? serverError;
  return (
    <form
      className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] sm:items-start"
      data-testid="add-repository"
      onSubmit={form.handleSubmit((data) => {
        setServerError(undefined);
        create.mutate(data);
      })}
    >
      <FormField id="repository-name" label="Name" error={nameError}>
        <Input
          id="repository-name"
          data-testid="repository-name"
          placeholder="acme/web-shop"
          value={form.values.name}
          onChange={(event) => {
            setServerError(undefined);
            form.setValue("name", event.target.value);
          }}
          {...invalidProps("repository-name", nameError)}
        />
      </FormField>
      <FormField id="repository-provider" label="Provider (optional)">
        <NativeSelect
          id="repository-provider"
          data-testid="repository-provider"
          value={form.values.provider ?? ""}
          onChange={(event) => form.setValue("provider", event.target.value)}
        >
          <option value="">None</option>
          {PROVIDERS.map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField
        id="repository-url"
        label="URL (optional)"
        error={form.errors.url}
        hint="Where the repository lives, e.g. https://github.com/acme/web-shop — set-commits --auto matches it against your git remote."
        className="sm:col-span-2"
      >
        <Input
          id="repository-url"
          data-testid="repository-url"
          placeholder="https://github.com/acme/web-shop"
          value={form.values.url ?? ""}
          onChange={(event) => form.setValue("url", event.target.value)}
          {...invalidProps("repository-url", form.errors.url)}
        />
      </FormField>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={create.isPending} data-testid="add-repository-submit">
          {create.isPending ? <Loader2Icon className="animate-spin" /> : null} Add repository
        </Button>
      </div>
    </form>
  );
}
