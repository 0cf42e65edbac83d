import { BellOffIcon, CheckCircle2Icon, CombineIcon, Loader2Icon, RotateCcwIcon } from "lucide-react";
import type { IssueStatus } from "@/shared/triage.inputs";
import { Button } from "@/client/components/ui/button";
import { ConfirmDialog } from "@/client/components/confirm-dialog";

interface Props {
  count: number;
  pending: boolean;
  refreshing: boolean;
  onSetStatus: (status: IssueStatus) => void;
  /** Merges the selected issues into the one with the most events; resolves when done. */
  onMerge: () => Promise<unknown>;
}

/** Resolve, ignore, reopen or merge the selected issues in one call. */
export function BulkActions({ count, pending, refreshing, onSetStatus, onMerge }: Props) {
  const disabled = count === 0 || pending;
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
        description="They become one issue — the one with the most events — with all their events, counts and activity. Future events of each go to it. You can split a fingerprint back out from the issue's “Why grouped” card."
        confirmLabel="Merge"
        onConfirm={onMerge}
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
      />
      {pending || refreshing ? <Loader2Icon className="ml-auto size-4 animate-spin text-muted-foreground" aria-label="Updating" /> : null}
    </div>
  );
}
