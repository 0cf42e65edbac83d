import { useState } from "react";
import { CheckIcon, ChevronDownIcon } from "lucide-react";
import { IN_NEXT_RELEASE } from "@/shared/triage.inputs";
import type { IssueDetail, ReleaseChoice } from "@/shared/triage.views";
import { trpc } from "@/client/lib/trpc";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { cleanText } from "@/client/lib/untrusted-text";
import { formatDateTime } from "@/client/lib/format";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Button } from "@/client/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/client/components/ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/client/components/ui/dropdown-menu";
import { NativeSelect } from "@/client/components/ui/select";
import { Skeleton } from "@/client/components/ui/skeleton";
import { resolvedInReleaseText } from "./-release-badges";

/**
 * "Resolve", "Resolve in next release" and "Resolve in release…" (a picker of the project's
 * releases, newest first). Events of releases up to the chosen one keep the issue resolved; a newer
 * release reopens it as a regression (issues/issue-state.ts). Disabled, with the reason, for a role
 * that may not triage.
 */
export function ResolveMenu({ issue }: { issue: IssueDetail }) {
  const permissions = usePermissions();
  const refusal = permissions.refusal("issue:triage");
  const canTriage = permissions.can("issue:triage");
  const scope = { projectId: issue.projectId, issueId: issue.id };
  const choices = trpc.issue.releaseChoices.useQuery({ projectId: issue.projectId }, { enabled: canTriage });
  const [picking, setPicking] = useState(false);
  const utils = trpc.useUtils();
  const resolve = useToastMutation((inRelease: string | undefined) => utils.client.issue.setStatus.mutate({ ...scope, status: "RESOLVED", inRelease }), {
    refresh: () => Promise.all([utils.issue.invalidate(), utils.project.overview.invalidate()]),
    success: (updated) => resolvedNotice(updated),
    onSuccess: () => setPicking(false),
  });
  const latest = choices.data?.[0];
  const noReleases = choices.isSuccess && choices.data.length === 0;

  return (
    <div className="grid gap-1.5">
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button size="sm" variant="outline" disabled={!canTriage || resolve.isPending} data-testid="resolve-menu" title={refusal ?? undefined}>
            <CheckIcon /> Resolve <ChevronDownIcon />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => resolve.mutate(undefined)} data-testid="resolve-now">
            Resolve
          </DropdownMenuItem>
          <DropdownMenuItem
            disabled={!latest}
            onSelect={() => resolve.mutate(IN_NEXT_RELEASE)}
            data-testid="resolve-next-release"
            title={noReleases ? "This project has no release yet" : undefined}
          >
            {latest
              ? `Resolve in next release (after ${cleanText(latest.version)})`
              : noReleases
                ? "Resolve in next release (no release yet)"
                : "Resolve in next release"}
          </DropdownMenuItem>
          <DropdownMenuItem disabled={noReleases} onSelect={() => setPicking(true)} data-testid="resolve-in-release">
            Resolve in release…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {refusal ? <p className="max-w-48 text-xs text-muted-foreground">{refusal}</p> : null}
      <Dialog open={picking} onOpenChange={setPicking}>
        {picking ? <ReleasePicker choices={choices} pending={resolve.isPending} onResolve={(version) => resolve.mutate(version)} /> : null}
      </Dialog>
    </div>
  );
}

/** What the picker shows of the `issue.releaseChoices` query. */
interface Choices {
  data: ReleaseChoice[] | undefined;
  isPending: boolean;
  error: unknown;
  refetch: () => unknown;
}

function ReleasePicker({ choices, pending, onResolve }: { choices: Choices; pending: boolean; onResolve: (version: string) => void }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const version = chosen ?? choices.data?.[0]?.version ?? null;
  return (
    <DialogContent data-testid="resolve-in-release-dialog">
      <DialogHeader>
        <DialogTitle>Resolve in release</DialogTitle>
        <DialogDescription>
          The first release with the fix: exceptions from older releases keep the issue resolved, one from this release or a newer one reopens it as a
          regression.
        </DialogDescription>
      </DialogHeader>
      {choices.isPending ? <Skeleton className="h-9 w-full" /> : null}
      {choices.error ? <QueryErrorAlert error={choices.error} onRetry={() => void choices.refetch()} title="Could not load the releases" /> : null}
      {choices.data && choices.data.length === 0 ? <p className="text-sm text-muted-foreground">This project has no release yet.</p> : null}
      {choices.data && choices.data.length > 0 ? (
        <NativeSelect aria-label="Release" value={version ?? ""} onChange={(event) => setChosen(event.target.value)} data-testid="resolve-release-select">
          {choices.data.map((choice) => (
            <option key={choice.version} value={choice.version}>
              {cleanText(choice.version)} — {formatDateTime(choice.createdAt)}
            </option>
          ))}
        </NativeSelect>
      ) : null}
      <DialogFooter>
        <Button disabled={!version || pending} onClick={() => version && onResolve(version)} data-testid="resolve-release-confirm">
          Resolve
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}

function resolvedNotice(issue: IssueDetail): string {
  return issue.resolvedInRelease ? resolvedInReleaseText(issue.resolvedInRelease, issue.resolvedInNextRelease) : "Issue marked as resolved";
}
