import type { ReleaseHealthDay } from "@/shared/release.views";
import { formatDay, formatNumber } from "@/client/lib/format";
import { BarChart } from "@/client/components/charts/bar-chart";

/** Sessions per UTC day, crashed ones stacked on the rest; the crash-free rate of each day in the tooltip's title. */
export function ReleaseHealthChart({ days }: { days: ReleaseHealthDay[] }) {
  if (days.every((day) => day.sessions === 0))
    return (
      <p className="py-8 text-center text-sm text-muted-foreground" data-testid="release-health-empty">
        No sessions in the last {days.length} days. Health needs the SDK's release health (sessions) turned on, with this release as its <code>release</code>.
      </p>
    );
  const rows = days.map((day) => ({ day: day.day, healthy: day.sessions - day.crashed, crashed: day.crashed, rate: day.crashFreeSessions }));
  const rateOf = new Map(rows.map((row) => [row.day, row.rate]));
  return (
    <BarChart
      className="h-56"
      data={rows}
      index="day"
      categories={["healthy", "crashed"]}
      categoryLabels={{ healthy: "Sessions without a crash", crashed: "Crashed sessions" }}
      colors={["emerald", "amber"]}
      type="stacked"
      valueFormatter={formatNumber}
      indexFormatter={formatDay}
      tooltipIndexFormatter={(day) => {
        const rate = rateOf.get(day);
        return rate === null || rate === undefined ? formatDay(day) : `${formatDay(day)} · ${rate.toFixed(2)} % crash-free`;
      }}
      yAxisWidth={48}
      data-testid="release-health-chart"
    />
  );
}
