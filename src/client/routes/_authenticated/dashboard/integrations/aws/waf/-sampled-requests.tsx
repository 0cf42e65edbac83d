import { Link } from "@tanstack/react-router";
import { trpc } from "@/client/lib/trpc";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Skeleton } from "@/client/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";

/** What AWS sampled in the last three hours for the rules using this IP set, each client IP linked to the exceptions seen from it. */
export function SampledRequests({ ipSetId }: { ipSetId: string }) {
  const samples = trpc.waf.sampledRequests.useQuery({ ipSetId });
  if (samples.isPending) return <Skeleton className="h-24" />;
  if (samples.error) return <QueryErrorAlert error={samples.error} onRetry={() => void samples.refetch()} />;
  if (samples.data.requests.length === 0) return <p className="text-sm text-muted-foreground">AWS sampled no requests for these rules in the last 3 hours.</p>;
  return (
    <Table data-testid="waf-samples">
      <TableHeader>
        <TableRow>
          <TableHead>Time</TableHead>
          <TableHead>Client IP</TableHead>
          <TableHead>Request</TableHead>
          <TableHead>Rule</TableHead>
          <TableHead>Exceptions from this IP</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {samples.data.requests.map((request, index) => (
          <TableRow key={`${request.at.getTime()}-${request.clientIp}-${index}`}>
            <TableCell className="text-xs">{request.at.toLocaleTimeString()}</TableCell>
            <TableCell className="font-mono text-xs">
              {request.clientIp} {request.country ? <span className="text-muted-foreground">({request.country})</span> : null}
            </TableCell>
            <TableCell className="max-w-64 truncate font-mono text-xs">
              {request.method} {request.uri}
            </TableCell>
            <TableCell className="text-xs">
              {request.ruleName} · {request.action}
            </TableCell>
            <TableCell className="text-xs">
              {request.exceptions.length === 0
                ? "None"
                : request.exceptions.map((exception) => (
                    <Link
                      key={exception.exceptionId}
                      to="/dashboard/issues/$issueId/exceptions/$exceptionId"
                      params={{ issueId: exception.issueId, exceptionId: exception.exceptionId }}
                      search={{ projectId: exception.projectId }}
                      className="mr-2 underline"
                    >
                      {exception.name ?? "exception"}
                    </Link>
                  ))}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
