import { Link } from "@tanstack/react-router";
import { trpc } from "@/client/lib/trpc";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { RelativeTime } from "@/client/components/relative-time";
import { Card, CardContent, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";

/** Every block and unblock made through Faultline: who, which address, from which exception. */
export function WafAuditCard() {
  const audit = trpc.waf.audit.useQuery({ limit: 50 });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Block history</CardTitle>
      </CardHeader>
      <CardContent>
        {audit.isPending ? (
          <Skeleton className="h-24" />
        ) : audit.error ? (
          <QueryErrorAlert error={audit.error} onRetry={() => void audit.refetch()} />
        ) : audit.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing blocked through Faultline yet.</p>
        ) : (
          <ol className="grid gap-2" data-testid="waf-audit">
            {audit.data.map((entry) => (
              <li key={entry.id} className="grid gap-0.5 border-l-2 pl-3 text-sm" data-testid="waf-audit-entry" data-action={entry.action}>
                <span>
                  <span className="font-medium">{entry.actor?.name || entry.actor?.email || "Someone"}</span>{" "}
                  {entry.action === "block" ? "blocked" : "unblocked"} <code className="font-mono text-xs">{entry.cidr}</code> in {entry.ipSetName}
                  {entry.outcome === "unchanged" ? (
                    <span className="text-muted-foreground"> (no change: {entry.action === "block" ? "already there" : "not there"})</span>
                  ) : null}
                  {entry.exceptionId && entry.issueId && entry.projectId ? (
                    <>
                      {" "}
                      from{" "}
                      <Link
                        to="/dashboard/issues/$issueId/exceptions/$exceptionId"
                        params={{ issueId: entry.issueId, exceptionId: entry.exceptionId }}
                        search={{ projectId: entry.projectId }}
                        className="underline"
                      >
                        an exception
                      </Link>
                    </>
                  ) : null}
                </span>
                <RelativeTime date={entry.createdAt} className="text-xs text-muted-foreground" />
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
