import { trpc } from "@/client/lib/trpc";
import { formatBytes, formatDay, formatNumber } from "@/client/lib/format";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";

/**
 * What the organization stores, per project: occurrences and the oldest kept day are exact (the
 * daily rollups), bytes an estimate (the newest rows' average size × occurrences), as the footnote says.
 */
export function StorageCard() {
  const storage = trpc.storage.summary.useQuery(undefined, { staleTime: 60_000 });
  return (
    <Card data-testid="storage-card">
      <CardHeader>
        <CardTitle>Storage</CardTitle>
        <CardDescription>Occurrences kept per project, their approximate size, and the oldest day still kept.</CardDescription>
      </CardHeader>
      <CardContent>
        {storage.isPending ? (
          <Skeleton className="h-16" />
        ) : storage.error ? (
          <QueryErrorAlert error={storage.error} onRetry={() => void storage.refetch()} title="Could not load the storage figures" />
        ) : storage.data.projects.length === 0 ? (
          <p className="text-sm text-muted-foreground">The organization has no projects yet.</p>
        ) : (
          <div className="grid gap-2">
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-1 font-medium">Project</th>
                  <th className="py-1 text-right font-medium">Occurrences</th>
                  <th className="py-1 text-right font-medium">Size (est.)</th>
                  <th className="py-1 text-right font-medium">Oldest kept</th>
                </tr>
              </thead>
              <tbody>
                {storage.data.projects.map((project) => (
                  <tr key={project.projectId} className="border-t" data-testid="storage-row" data-project-id={project.projectId}>
                    <td className="py-1">{project.name}</td>
                    <td className="py-1 text-right tabular-nums" data-testid="storage-occurrences">
                      {formatNumber(project.occurrences)}
                    </td>
                    <td className="py-1 text-right tabular-nums">{formatBytes(project.bytes)}</td>
                    <td className="py-1 text-right">{project.oldestDay ? formatDay(project.oldestDay) : "—"}</td>
                  </tr>
                ))}
                <tr className="border-t font-medium">
                  <td className="py-1">All projects</td>
                  <td className="py-1 text-right tabular-nums">{formatNumber(storage.data.totals.occurrences)}</td>
                  <td className="py-1 text-right tabular-nums">{formatBytes(storage.data.totals.bytes)}</td>
                  <td className="py-1 text-right">{storage.data.totals.oldestDay ? formatDay(storage.data.totals.oldestDay) : "—"}</td>
                </tr>
              </tbody>
            </table>
            <p className="text-xs text-muted-foreground">
              Occurrence counts and days are exact. Sizes are estimated from the average stored size of each project's newest occurrences; indexes are not
              included.
            </p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
