import { trpc } from "@/client/lib/trpc";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Skeleton } from "@/client/components/ui/skeleton";
import { readOccurrence } from "@/shared/occurrence-view";
import { ExceptionChain } from "./exceptions/-exception/stack-trace";

/**
 * The latest exception's stack trace, inline on the issue page: the exception page's own chain
 * (with its in-app and Minified toggles). It shares the `exception.get` query the "Block this IP"
 * action reads, so the latest exception is fetched once.
 */
export function LatestStackTrace({ projectId, latestExceptionId }: { projectId: string; latestExceptionId: string | null }) {
  const exception = trpc.exception.get.useQuery({ projectId, exceptionId: latestExceptionId ?? "" }, { enabled: latestExceptionId !== null });
  if (latestExceptionId === null) return null;
  if (exception.isPending) return <Skeleton className="h-40 w-full" />;
  if (exception.error)
    return <QueryErrorAlert error={exception.error} onRetry={() => void exception.refetch()} title="Could not load the latest stack trace" />;
  const occurrence = readOccurrence(exception.data.data);
  return (
    <div data-testid="issue-latest-stack-trace" data-exception-id={exception.data.id}>
      <ExceptionChain exceptions={occurrence.exceptions} stacktrace={occurrence.stacktrace} message={occurrence.message} />
    </div>
  );
}
