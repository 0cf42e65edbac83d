import { BellOffIcon, CheckCircle2Icon, Loader2Icon, RotateCcwIcon } from "lucide-react";
import type { IssueStatus } from "@/shared/triage.inputs";
import { Button } from "@/client/components/ui/button";

interface Props {
  count: number;
  pending: boolean;
  refreshing: boolean;
  onSetStatus: (status: IssueStatus) => void;
}

/** Resolve, ignore or reopen the selected issues in one call. */
export function BulkActions({ count, pending, refreshing, onSetStatus }: Props) {
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
      {pending || refreshing ? <Loader2Icon className="ml-auto size-4 animate-spin text-muted-foreground" aria-label="Updating" /> : null}
    </div>
  );
}
