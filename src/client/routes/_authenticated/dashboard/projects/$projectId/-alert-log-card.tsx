import { useState } from "react";
import { trpc } from "@/client/lib/trpc";
import { Pager } from "@/client/components/pager";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { RelativeTime } from "@/client/components/relative-time";
import { Badge } from "@/client/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";

const STATUS_VARIANT = { sent: "default", pending: "secondary", suppressed: "outline", failed: "destructive" } as const;

/** Every notification attempt of the project, newest first: rule, issue, channel, outcome and its error. */
export function AlertLogCard({ projectId }: { projectId: string }) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(20);
  const log = trpc.alert.notifications.useQuery({ projectId, page, size }, { refetchInterval: 5000 });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notification log</CardTitle>
        <CardDescription>Sent, held back by the storm guard, or failed with the reason. Failed webhooks are retried with backoff first.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {log.isPending ? <Skeleton className="h-24" /> : null}
        {log.error ? <QueryErrorAlert error={log.error} onRetry={() => void log.refetch()} /> : null}
        {log.data?.meta.totalItems === 0 ? (
          <p className="text-sm text-muted-foreground">No notifications yet. Press "Send test" on a rule to try its actions.</p>
        ) : null}
        {log.data && log.data.items.length > 0 ? (
          <>
            <Table data-testid="alert-log">
              <TableHeader>
                <TableRow>
                  <TableHead>When</TableHead>
                  <TableHead>Rule</TableHead>
                  <TableHead>Issue</TableHead>
                  <TableHead>Channel</TableHead>
                  <TableHead>Status</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {log.data.items.map((entry) => (
                  <TableRow key={entry.id} data-testid="alert-log-row">
                    <TableCell>
                      <RelativeTime date={entry.createdAt} />
                    </TableCell>
                    <TableCell>
                      {entry.ruleName}
                      {entry.kind !== "alert" ? <span className="text-muted-foreground"> ({entry.kind})</span> : null}
                    </TableCell>
                    <TableCell className="max-w-64 truncate">{entry.issueTitle ?? "—"}</TableCell>
                    <TableCell>{entry.channel}</TableCell>
                    <TableCell>
                      <Badge variant={STATUS_VARIANT[entry.status]}>{entry.status}</Badge>
                      {entry.error ? <div className="mt-1 max-w-80 text-xs break-words text-muted-foreground">{entry.error}</div> : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Pager meta={log.data.meta} onPageChange={setPage} onSizeChange={setSize} />
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
