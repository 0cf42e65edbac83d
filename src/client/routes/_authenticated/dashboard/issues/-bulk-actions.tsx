import { useState } from "react";
import { BellOffIcon, CheckCircle2Icon, CombineIcon, Loader2Icon, RotateCcwIcon } from "lucide-react";
import type { IssueStatus } from "@/shared/triage.inputs";
import type { IssueListItem } from "@/shared/triage.views";
import { Button } from "@/client/components/ui/button";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { formatNumber } from "@/client/lib/format";

type MergeCandidate = Pick<IssueListItem, "id" | "title" | "culprit" | "eventCount" | "firstSeen">;

interface Props {
  /** The selected issues, in the list's order. */
  selected: readonly MergeCandidate[];
  pending: boolean;
  refreshing: boolean;
  onSetStatus: (status: IssueStatus) => void;
  /** Merges the selected issues into the one chosen to stay; resolves when done. */
  onMerge: (targetId: string) => Promise<unknown>;
}

/** The server's default: the most events, the oldest on a tie (issue-grouping.service.ts). */
export function defaultMergeTarget(issues: readonly MergeCandidate[]): MergeCandidate | undefined {
  return [...issues].sort((a, b) => b.eventCount - a.eventCount || a.firstSeen.valueOf() - b.firstSeen.valueOf())[0];
}

/** Resolve, ignore, reopen or merge the selected issues in one call. */
export function BulkActions({ selected, pending, refreshing, onSetStatus, onMerge }: Props) {
  const count = selected.length;
  const disabled = count === 0 || pending;
  // The user's choice of the issue that stays, while it is still selected; else the default.
  const [chosenId, setChosenId] = useState<string | null>(null);
  const target = selected.find((issue) => issue.id === chosenId) ?? defaultMergeTarget(selected);
  return (
    <div className="flex flex-wrap items-center gap-2 border-b px-4 py-2" data-testid="bulk-actions">
      <span className="mr-2 text-sm text-muted-foreground" data-testid="bulk-count">
        {count === 0 ? "Select issues to change their status" : `${count} selected`}
      </span>
      <Button variant="outline" size="sm" disabled={disabled} onClick={() => onSetStatus("RESOLVED")} data-testid="bulk-resolve">
        <CheckCircle2Icon /> Resolve
      </Button>
      <Button variant="outline" size="sm" disabled={disabled} onClick={() => onSetStatus("IGNORED")} data-testid="bulk-ignore">
        <BellOffIcon /> Ignore
      </Button>
      <Button variant="outline" size="sm" disabled={disabled} onClick={() => onSetStatus("OPEN")} data-testid="bulk-reopen">
        <RotateCcwIcon /> Reopen
      </Button>
      <ConfirmDialog
        title={`Merge ${count} issues?`}
        description="They become the issue you keep below — by default the one with the most events — with all their events, counts and activity. Future events of each go to it. You can split a fingerprint back out from the issue's “Why grouped” card."
        confirmLabel="Merge"
        onConfirm={() => (target ? onMerge(target.id) : Promise.resolve())}
        testId="merge-dialog"
        trigger={
          <Button
            variant="outline"
            size="sm"
            disabled={count < 2 || pending}
            data-testid="bulk-merge"
            title={count < 2 ? "Select at least two issues to merge" : undefined}
          >
            <CombineIcon /> Merge
          </Button>
        }
      >
        <fieldset className="grid min-w-0 gap-1" data-testid="merge-target">
          <legend className="mb-2 text-sm font-medium">Issue to keep</legend>
          <div className="grid max-h-64 gap-1 overflow-y-auto">
            {selected.map((issue) => (
              <label
                key={issue.id}
                className="flex min-w-0 cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-muted/50"
                data-testid="merge-target-option"
              >
                <input
                  type="radio"
                  name="merge-target"
                  value={issue.id}
                  checked={issue.id === target?.id}
                  onChange={() => setChosenId(issue.id)}
                  className="accent-primary"
                />
                {/* Issues of one error type share a title: the culprit tells them apart. */}
                <span className="grid min-w-0 flex-1">
                  <span className="truncate" title={issue.title}>
                    {issue.title}
                  </span>
                  {issue.culprit ? (
                    <span className="truncate font-mono text-xs text-muted-foreground" title={issue.culprit}>
                      {issue.culprit}
                    </span>
                  ) : null}
                </span>
                <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                  {formatNumber(issue.eventCount)} {issue.eventCount === 1 ? "event" : "events"}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </ConfirmDialog>
      {pending || refreshing ? <Loader2Icon className="ml-auto size-4 animate-spin text-muted-foreground" aria-label="Updating" /> : null}
    </div>
  );
}
