import type { DailyCount } from "@/shared/triage.views";
import { formatCount, formatDay, formatNumber } from "@/client/lib/format";
import { cn } from "@/client/lib/utils";
import { BarChart } from "./charts/bar-chart";
import { QueryErrorAlert } from "./query-error-alert";
import { Skeleton } from "./ui/skeleton";

interface Props {
  data: DailyCount[] | undefined;
  isPending: boolean;
  error: unknown;
  onRetry?: () => void;
  /** A small chart for cards: no axes, legend or grid. */
  compact?: boolean;
  className?: string;
}

/** Occurrences per UTC day, zero-filled by the API, with loading, error and empty states. */
export function OccurrenceChart({ data, isPending, error, onRetry, compact = false, className }: Props) {
  const height = compact ? "h-20" : "h-56";
  if (isPending) return <Skeleton className={cn(height, "w-full", className)} aria-busy />;
  if (error || !data) return <QueryErrorAlert error={error} onRetry={onRetry} title="Could not load the occurrence chart" />;

  const total = data.reduce((sum, day) => sum + day.count, 0);
  return (
    <div className={cn("relative", className)} data-testid="occurrence-chart" data-total={total}>
      <BarChart
        className={height}
        data={data as unknown as Record<string, unknown>[]}
        index="date"
        categories={["count"]}
        categoryLabels={{ count: "Occurrences" }}
        colors={["brand"]}
        valueFormatter={(value) => (compact ? formatNumber(value) : formatCount(value))}
        indexFormatter={formatDay}
        showLegend={false}
        showYAxis={!compact}
        showGridLines={!compact}
        startEndOnly={compact}
        yAxisWidth={40}
        barCategoryGap={compact ? "15%" : "20%"}
        aria-label={`Occurrences per day, ${formatNumber(total)} in total`}
      />
      {total === 0 ? (
        <p className="pointer-events-none absolute inset-0 flex items-center justify-center text-sm text-muted-foreground">No occurrences in this period</p>
      ) : null}
    </div>
  );
}
