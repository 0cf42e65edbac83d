import { useState } from "react";
import { trpc } from "@/client/lib/trpc";
import { lastDays } from "@/client/lib/format";
import { OccurrenceChart } from "@/client/components/occurrence-chart";
import { Button } from "@/client/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";

const RANGES = [14, 30] as const;

/** Occurrences of the issue per UTC day, over the last 14 or 30 days. */
export function IssueOccurrencesCard({ projectId, issueId }: { projectId: string; issueId: string }) {
  const [days, setDays] = useState<(typeof RANGES)[number]>(14);
  const stats = trpc.stats.daily.useQuery({ projectId, issueId, ...lastDays(days) });
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Occurrences</CardTitle>
        <CardDescription>Per day (UTC), last {days} days</CardDescription>
        <CardAction>
          <div className="flex rounded-md border p-0.5" role="group" aria-label="Range">
            {RANGES.map((range) => (
              <Button
                key={range}
                variant={range === days ? "secondary" : "ghost"}
                size="sm"
                className="h-7 px-2.5"
                aria-pressed={range === days}
                onClick={() => setDays(range)}
                data-testid={`chart-range-${range}`}
              >
                {range} days
              </Button>
            ))}
          </div>
        </CardAction>
      </CardHeader>
      <CardContent>
        <OccurrenceChart data={stats.data} isPending={stats.isPending} error={stats.error} onRetry={() => void stats.refetch()} />
      </CardContent>
    </Card>
  );
}
