// Tremor's BarChart pattern (tremor.so "Raw" components, Apache-2.0) on recharts, trimmed to what
// the triage screens use: vertical bars, optional stacking, legend, themed tooltip and axes.
import type * as React from "react";
import { Bar, CartesianGrid, Legend, BarChart as RechartsBarChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { cn } from "@/client/lib/utils";
import { AvailableChartColors, constructCategoryColors, getColorClassName, getYAxisDomain, type ChartColor } from "./chart-utils";

type ChartRow = Record<string, unknown>;

export interface BarChartProps extends React.HTMLAttributes<HTMLDivElement> {
  data: ChartRow[];
  /** The key of the x value of each row. */
  index: string;
  /** The keys of the plotted values, one bar (or stack segment) each. */
  categories: string[];
  colors?: ChartColor[];
  valueFormatter?: (value: number) => string;
  /** Formats the x value in ticks and the tooltip title. */
  indexFormatter?: (value: string) => string;
  /** Formats the x value in the tooltip's title only (more than a tick has room for); defaults to indexFormatter. */
  tooltipIndexFormatter?: (value: string) => string;
  /** Names the categories in the legend and tooltip. */
  categoryLabels?: Record<string, string>;
  startEndOnly?: boolean;
  showXAxis?: boolean;
  showYAxis?: boolean;
  showGridLines?: boolean;
  showTooltip?: boolean;
  showLegend?: boolean;
  yAxisWidth?: number;
  autoMinValue?: boolean;
  minValue?: number;
  maxValue?: number;
  allowDecimals?: boolean;
  type?: "default" | "stacked";
  barCategoryGap?: string | number;
}

// Tremor styles ticks through classes (a class beats the presentation attribute recharts sets).
// recharts 3 draws tick labels in a layer of their own, so the class goes on each tick, not the axis.
const TICK_CLASS = "fill-muted-foreground text-xs";

const defaultFormatter = (value: number) => String(value);

export function BarChart({
  data,
  index,
  categories,
  colors = AvailableChartColors,
  valueFormatter = defaultFormatter,
  indexFormatter = (value) => value,
  tooltipIndexFormatter,
  categoryLabels = {},
  startEndOnly = false,
  showXAxis = true,
  showYAxis = true,
  showGridLines = true,
  showTooltip = true,
  showLegend = true,
  yAxisWidth = 48,
  autoMinValue = false,
  minValue,
  maxValue,
  allowDecimals = false,
  type = "default",
  barCategoryGap,
  className,
  ...other
}: BarChartProps) {
  const categoryColors = constructCategoryColors(categories, colors);
  const stacked = type === "stacked";
  const label = (category: string) => categoryLabels[category] ?? category;

  return (
    <div className={cn("h-80 w-full", className)} {...other}>
      <ResponsiveContainer width="100%" height="100%" minWidth={0}>
        <RechartsBarChart data={data} margin={{ bottom: 0, left: 0, right: 0, top: 5 }} barCategoryGap={barCategoryGap} accessibilityLayer>
          {showGridLines ? <CartesianGrid className="stroke-border stroke-1" horizontal vertical={false} /> : null}
          <XAxis
            hide={!showXAxis}
            dataKey={index}
            tick={{ transform: "translate(0, 6)", className: TICK_CLASS }}
            tickFormatter={(value) => indexFormatter(String(value))}
            ticks={startEndOnly && data.length > 0 ? [data[0][index] as string, data[data.length - 1][index] as string] : undefined}
            stroke=""
            interval={startEndOnly ? "preserveStartEnd" : "equidistantPreserveStart"}
            tickLine={false}
            axisLine={false}
            minTickGap={5}
          />
          <YAxis
            hide={!showYAxis}
            width={yAxisWidth}
            axisLine={false}
            tickLine={false}
            type="number"
            domain={getYAxisDomain(autoMinValue, minValue, maxValue)}
            tick={{ transform: "translate(-3, 0)", className: TICK_CLASS }}
            stroke=""
            tickFormatter={(value: number) => valueFormatter(value)}
            allowDecimals={allowDecimals}
          />
          {showTooltip ? (
            <Tooltip
              wrapperStyle={{ outline: "none" }}
              isAnimationActive
              animationDuration={100}
              cursor={{ className: "fill-muted-foreground/15" }}
              offset={20}
              content={(props: TooltipContentProps) => (
                <ChartTooltip
                  {...props}
                  categoryColors={categoryColors}
                  valueFormatter={valueFormatter}
                  indexFormatter={tooltipIndexFormatter ?? indexFormatter}
                  label={props.label}
                  categoryLabel={label}
                />
              )}
            />
          ) : null}
          {showLegend ? (
            <Legend
              verticalAlign="top"
              height={32}
              content={() => <ChartLegend categories={categories} categoryColors={categoryColors} categoryLabel={label} />}
            />
          ) : null}
          {categories.map((category) => (
            <Bar
              key={category}
              name={category}
              dataKey={category}
              className={getColorClassName(categoryColors.get(category) ?? "gray", "fill")}
              fill=""
              stackId={stacked ? "stack" : undefined}
              isAnimationActive={false}
              radius={stacked ? undefined : [3, 3, 0, 0]}
            />
          ))}
        </RechartsBarChart>
      </ResponsiveContainer>
    </div>
  );
}

function ChartLegend({
  categories,
  categoryColors,
  categoryLabel,
}: {
  categories: string[];
  categoryColors: Map<string, ChartColor>;
  categoryLabel: (category: string) => string;
}) {
  return (
    <ul className="flex flex-wrap items-center justify-end gap-x-4 gap-y-1 text-xs text-muted-foreground">
      {categories.map((category) => (
        <li key={category} className="flex items-center gap-1.5">
          <span className={cn("size-2 shrink-0 rounded-xs", getColorClassName(categoryColors.get(category) ?? "gray", "bg"))} aria-hidden />
          {categoryLabel(category)}
        </li>
      ))}
    </ul>
  );
}

interface ChartTooltipProps {
  active: boolean;
  payload: TooltipContentProps["payload"];
  label?: string | number;
  categoryColors: Map<string, ChartColor>;
  valueFormatter: (value: number) => string;
  indexFormatter: (value: string) => string;
  categoryLabel: (category: string) => string;
}

function ChartTooltip({ active, payload, label, categoryColors, valueFormatter, indexFormatter, categoryLabel }: ChartTooltipProps) {
  if (!active || !payload?.length) return null;
  return (
    <div className="rounded-md border bg-popover text-sm text-popover-foreground shadow-md">
      <div className="border-b px-3 py-2 font-medium">{indexFormatter(String(label ?? ""))}</div>
      <div className="space-y-1 px-3 py-2">
        {payload.map((item) => {
          const category = String(item.dataKey ?? item.name ?? "");
          return (
            <div key={category} className="flex items-center justify-between gap-6">
              <span className="flex items-center gap-2">
                <span className={cn("size-2 shrink-0 rounded-xs", getColorClassName(categoryColors.get(category) ?? "gray", "bg"))} aria-hidden />
                <span className="text-muted-foreground">{categoryLabel(category)}</span>
              </span>
              <span className="font-medium tabular-nums">{valueFormatter(Number(item.value ?? 0))}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
