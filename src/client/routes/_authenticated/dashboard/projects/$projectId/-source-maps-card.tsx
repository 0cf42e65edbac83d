import { Fragment } from "react";
import { Link } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { FileArchiveIcon, Trash2Icon } from "lucide-react";
import { trpc, type ProjectView, type RouterOutputs } from "@/client/lib/trpc";
import { formatBytes, formatNumber } from "@/client/lib/format";
import { organizationsQueryOptions } from "@/client/lib/organization";
import { useActiveOrganizationId } from "@/client/lib/use-organization";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { CodeBlock } from "@/client/components/code-block";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { RelativeTime } from "@/client/components/relative-time";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/client/components/ui/tabs";
import {
  debugIdUploadSnippet,
  esbuildPluginSnippet,
  groupByRelease,
  releaseUploadSnippet,
  serverOrigin,
  TOKEN_PLACEHOLDER,
  vitePluginSnippet,
  webpackPluginSnippet,
  type UploadTarget,
} from "./-source-map-snippets";

type Bundle = RouterOutputs["sourceMap"]["list"][number];
type ReleaseGroup = ReturnType<typeof groupByRelease<Bundle>>[number];

/** Project settings → Source maps (issue 33): the uploaded bundles (release:manage deletes them) and how to upload, filled in for this project. */
export function SourceMapsCard({ project }: { project: ProjectView }) {
  const { can, refusal } = usePermissions();
  const canManage = can("release:manage");
  const bundles = trpc.sourceMap.list.useQuery({ projectId: project.id });

  return (
    <Card data-testid="source-maps">
      <CardHeader>
        <CardTitle>Source maps</CardTitle>
        <CardDescription>
          Uploaded source maps turn minified JavaScript stack traces back into the original files, lines and functions.{" "}
          {refusal("release:manage") ? `${refusal("release:manage")}.` : ""}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 grid-cols-[minmax(0,1fr)]">
        {bundles.isPending ? <Skeleton className="h-16" /> : null}
        {bundles.error ? <QueryErrorAlert error={bundles.error} onRetry={() => void bundles.refetch()} title="Could not load the source maps" /> : null}
        {bundles.data?.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="source-maps-empty">
            No source maps uploaded yet: stack traces of minified code show the minified frames.
          </p>
        ) : null}
        {bundles.data && bundles.data.length > 0 ? <BundleTable projectId={project.id} bundles={bundles.data} canManage={canManage} /> : null}
        <UploadInstructions project={project} />
      </CardContent>
    </Card>
  );
}

function BundleTable({ projectId, bundles, canManage }: { projectId: string; bundles: Bundle[]; canManage: boolean }) {
  return (
    <Table data-testid="source-map-bundles">
      <TableHeader>
        <TableRow>
          <TableHead>Bundle</TableHead>
          <TableHead className="text-right">Files</TableHead>
          <TableHead className="text-right">Size</TableHead>
          <TableHead>Uploaded</TableHead>
          {canManage ? (
            <TableHead className="text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          ) : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {groupByRelease(bundles).map((group) => (
          <Fragment key={`${group.release}\u0000${group.dist}`}>
            <ReleaseRow projectId={projectId} group={group} canManage={canManage} />
            {group.bundles.map((bundle) => (
              <BundleRow key={bundle.id} projectId={projectId} bundle={bundle} canManage={canManage} />
            ))}
          </Fragment>
        ))}
      </TableBody>
    </Table>
  );
}

/** A release's heading row; deleting the release removes its bundles of this dist (no dist: those without one). */
function ReleaseRow({ projectId, group, canManage }: { projectId: string; group: ReleaseGroup; canManage: boolean }) {
  const utils = trpc.useUtils();
  const removeRelease = useToastMutation(utils.client.sourceMap.deleteRelease.mutate, {
    refresh: () => utils.sourceMap.list.invalidate({ projectId }),
    success: ({ deleted }) => `${deleted} ${deleted === 1 ? "bundle" : "bundles"} deleted`,
  });
  const { release, dist } = group;
  return (
    <TableRow className="bg-muted/40 hover:bg-muted/40" data-testid="source-map-release">
      <TableCell colSpan={canManage ? 5 : 4}>
        <div className="flex flex-wrap items-center gap-2">
          <span className="flex-1 font-medium">
            {release === null ? (
              <span className="text-muted-foreground">No release (found by debug id)</span>
            ) : (
              <>
                Release <code className="font-mono">{release}</code>
                {dist !== null ? (
                  <>
                    {" "}
                    · dist <code className="font-mono">{dist}</code>
                  </>
                ) : null}
              </>
            )}
          </span>
          {canManage && release !== null ? (
            <ConfirmDialog
              title={`Delete every bundle of ${dist === null ? `release ${release}` : `release ${release} (dist ${dist})`}?`}
              description={`${group.bundles.length === 1 ? "Its bundle goes" : `All ${group.bundles.length} bundles go`}; events of this release then show minified frames until you upload again.`}
              confirmLabel="Delete bundles"
              destructive
              onConfirm={() => removeRelease.mutateAsync({ projectId, release, dist: dist ?? undefined })}
              trigger={
                <Button size="sm" variant="ghost" className="text-destructive" data-testid="delete-source-map-release">
                  <Trash2Icon /> Delete release
                </Button>
              }
            />
          ) : null}
        </div>
      </TableCell>
    </TableRow>
  );
}

function BundleRow({ projectId, bundle, canManage }: { projectId: string; bundle: Bundle; canManage: boolean }) {
  const utils = trpc.useUtils();
  const remove = useToastMutation(utils.client.sourceMap.delete.mutate, {
    refresh: () => utils.sourceMap.list.invalidate({ projectId }),
    success: "Bundle deleted",
  });
  return (
    <TableRow data-testid="source-map-bundle" data-release={bundle.release ?? undefined}>
      <TableCell>
        <span className="flex items-center gap-2">
          <FileArchiveIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          <code className="truncate font-mono text-xs" title={bundle.debugId ? `Debug id ${bundle.debugId}` : `SHA-1 ${bundle.checksum}`}>
            {bundle.debugId ?? bundle.checksum.slice(0, 12)}
          </code>
        </span>
      </TableCell>
      <TableCell className="text-right tabular-nums" data-testid="source-map-files">
        {formatNumber(bundle.fileCount)}
      </TableCell>
      <TableCell className="text-right tabular-nums">{formatBytes(bundle.size)}</TableCell>
      <TableCell>
        <RelativeTime date={bundle.createdAt} />
      </TableCell>
      {canManage ? (
        <TableCell className="text-right">
          <ConfirmDialog
            title="Delete this bundle?"
            description={`Its ${bundle.fileCount === 1 ? "file goes" : `${formatNumber(bundle.fileCount)} files go`}; stack traces that used its maps show minified frames again.`}
            confirmLabel="Delete bundle"
            destructive
            onConfirm={() => remove.mutateAsync({ projectId, bundleId: bundle.id })}
            trigger={
              <Button size="sm" variant="ghost" aria-label="Delete bundle" data-testid="delete-source-map-bundle">
                <Trash2Icon />
              </Button>
            }
          />
        </TableCell>
      ) : null}
    </TableRow>
  );
}

function UploadInstructions({ project }: { project: ProjectView }) {
  const organizationId = useActiveOrganizationId();
  const organizations = useQuery(organizationsQueryOptions());
  const organizationSlug = organizations.data?.find((organization) => organization.id === organizationId)?.slug;
  if (!organizationSlug) return null;
  const target: UploadTarget = { origin: serverOrigin(project.dsn, window.location.origin), organizationSlug, projectSlug: project.slug };

  return (
    <div className="grid gap-3 grid-cols-[minmax(0,1fr)]" data-testid="source-map-upload">
      <h3 className="text-sm font-medium">Upload source maps</h3>
      <p className="text-sm text-muted-foreground">
        The unchanged <code>sentry-cli</code> and Sentry bundler plugins upload to this server. They need an API token: <code>{TOKEN_PLACEHOLDER}</code> stands
        for one with the <code>project:releases</code> scope —{" "}
        <Link to="/settings/organization" hash="api-tokens" className="underline underline-offset-4" data-testid="source-maps-token-link">
          create an API token
        </Link>
        .
      </p>
      <Tabs defaultValue="debug-ids">
        <TabsList>
          <TabsTrigger value="debug-ids">sentry-cli</TabsTrigger>
          <TabsTrigger value="release">sentry-cli with a release</TabsTrigger>
          <TabsTrigger value="vite">Vite plugin</TabsTrigger>
          <TabsTrigger value="webpack">webpack plugin</TabsTrigger>
          <TabsTrigger value="esbuild">esbuild plugin</TabsTrigger>
        </TabsList>
        <TabsContent value="debug-ids">
          <CodeBlock code={debugIdUploadSnippet(target)} testId="source-maps-snippet-cli" />
        </TabsContent>
        <TabsContent value="release">
          <CodeBlock code={releaseUploadSnippet(target)} testId="source-maps-snippet-release" />
        </TabsContent>
        <TabsContent value="vite">
          <CodeBlock code={vitePluginSnippet(target)} testId="source-maps-snippet-vite" />
        </TabsContent>
        <TabsContent value="webpack">
          <CodeBlock code={webpackPluginSnippet(target)} testId="source-maps-snippet-webpack" />
        </TabsContent>
        <TabsContent value="esbuild">
          <CodeBlock code={esbuildPluginSnippet(target)} testId="source-maps-snippet-esbuild" />
        </TabsContent>
      </Tabs>
    </div>
  );
}
