import { Link, useNavigate } from "@tanstack/react-router";
import { CombineIcon } from "lucide-react";
import type { SimilarIssue } from "@/shared/grouping.views";
import { trpc } from "@/client/lib/trpc";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { formatNumber } from "@/client/lib/format";
import { cleanText } from "@/client/lib/untrusted-text";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";

const REASON_LABELS: Record<SimilarIssue["reasons"][number], string> = {
  crashFrame: "same crashing frame",
  exceptionType: "same exception type",
  message: "close message",
};

/** Other issues of the project that may be the same defect, each mergeable into this one in one click. */
export function SimilarIssuesCard({ projectId, issueId }: { projectId: string; issueId: string }) {
  const canTriage = usePermissions().can("issue:triage");
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const similar = trpc.issue.similar.useQuery({ projectId, issueId });
  const merge = useToastMutation(utils.client.issue.merge.mutate, {
    success: (merged) => `Merged into “${merged.title}”`,
    onSuccess: async (merged) => {
      await Promise.all([utils.issue.invalidate(), utils.exception.invalidate(), utils.stats.invalidate(), utils.project.overview.invalidate()]);
      if (merged.id !== issueId) void navigate({ to: "/dashboard/issues/$issueId", params: { issueId: merged.id }, search: { projectId } });
    },
  });

  return (
    <Card className="gap-4" data-testid="similar-issues">
      <CardHeader>
        <CardTitle>Similar issues</CardTitle>
        <CardDescription>Same crashing frame, or same exception type with a close message</CardDescription>
      </CardHeader>
      <CardContent>
        {similar.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : similar.error ? (
          <QueryErrorAlert error={similar.error} onRetry={() => void similar.refetch()} title="Could not load similar issues" />
        ) : similar.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No similar issues in this project.</p>
        ) : (
          <ul className="grid gap-3">
            {similar.data.map(({ issue, reasons }) => (
              <li key={issue.id} className="flex items-start gap-2 text-sm" data-testid="similar-issue" data-issue-id={issue.id}>
                <div className="grid min-w-0 flex-1 gap-0.5">
                  <Link to="/dashboard/issues/$issueId" params={{ issueId: issue.id }} search={{ projectId }} className="truncate font-medium hover:underline">
                    {cleanText(issue.title)}
                  </Link>
                  <span className="text-xs text-muted-foreground">
                    {reasons.map((reason) => REASON_LABELS[reason]).join(", ")} · {formatNumber(issue.eventCount)} events
                  </span>
                </div>
                {canTriage ? (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={merge.isPending}
                    onClick={() => merge.mutate({ projectId, issueIds: [issueId, issue.id], targetId: issueId })}
                    data-testid="merge-similar"
                    title="Merge it into this issue"
                  >
                    <CombineIcon /> Merge
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
