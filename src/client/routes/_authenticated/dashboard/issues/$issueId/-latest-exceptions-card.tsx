import { Link } from "@tanstack/react-router";
import { ArrowRightIcon, BugIcon } from "lucide-react";
import { ISSUE_DETAIL_PRELOAD_SIZE } from "@/shared/constants";
import type { IssueDetail } from "@/shared/triage.views";
import { trpc } from "@/client/lib/trpc";
import { ExceptionsTable } from "@/client/components/exceptions-table";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Button } from "@/client/components/ui/button";
import { Card, CardAction, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";

/** The issue's 5 newest occurrences (preloaded by the route), with links onwards. */
export function LatestExceptionsCard({ issue }: { issue: IssueDetail }) {
  const scope = { projectId: issue.projectId, issueId: issue.id };
  const exceptions = trpc.exception.list.useQuery({ ...scope, page: 1, size: ISSUE_DETAIL_PRELOAD_SIZE });
  return (
    <Card className="gap-4 pb-2">
      <CardHeader>
        <CardTitle>Latest exceptions</CardTitle>
        <CardDescription>{exceptions.data ? `${exceptions.data.meta.totalItems.toLocaleString()} in total` : "The newest occurrences"}</CardDescription>
        <CardAction className="flex flex-wrap justify-end gap-2">
          {issue.latestExceptionId ? (
            <Button asChild size="sm" variant="outline">
              <Link
                to="/dashboard/issues/$issueId/exceptions/$exceptionId"
                params={{ issueId: issue.id, exceptionId: issue.latestExceptionId }}
                search={{ projectId: issue.projectId }}
                data-testid="latest-exception-link"
              >
                <BugIcon /> Latest stack trace
              </Link>
            </Button>
          ) : null}
          <Button asChild size="sm" variant="ghost">
            <Link
              to="/dashboard/issues/$issueId/exceptions"
              params={{ issueId: issue.id }}
              search={{ projectId: issue.projectId }}
              data-testid="all-exceptions-link"
            >
              All exceptions <ArrowRightIcon />
            </Link>
          </Button>
        </CardAction>
      </CardHeader>
      {exceptions.isPending ? (
        <div className="grid gap-2 px-6 pb-4">
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} className="h-6" />
          ))}
        </div>
      ) : exceptions.error ? (
        <div className="px-6 pb-4">
          <QueryErrorAlert error={exceptions.error} onRetry={() => void exceptions.refetch()} title="Could not load the exceptions" />
        </div>
      ) : exceptions.data.items.length === 0 ? (
        <p className="px-6 pb-4 text-sm text-muted-foreground">No stored occurrences (they may have passed the retention period).</p>
      ) : (
        <ExceptionsTable exceptions={exceptions.data.items} projectId={issue.projectId} testId="latest-exceptions-table" />
      )}
    </Card>
  );
}
