// Tremor's chart utilities pattern (tremor.so "Raw" components, Apache-2.0), adapted: colours are
// Tailwind classes with a light and a dark shade, so charts follow the theme without JavaScript.

export type ColorUtility = "bg" | "stroke" | "fill" | "text";

export const chartColors = {
  brand: { bg: "bg-brand", stroke: "stroke-brand", fill: "fill-brand", text: "text-brand" },
  blue: {
    bg: "bg-blue-600 dark:bg-blue-500",
    stroke: "stroke-blue-600 dark:stroke-blue-500",
    fill: "fill-blue-600 dark:fill-blue-500",
    text: "text-blue-600 dark:text-blue-500",
  },
  emerald: {
    bg: "bg-emerald-600 dark:bg-emerald-500",
    stroke: "stroke-emerald-600 dark:stroke-emerald-500",
    fill: "fill-emerald-600 dark:fill-emerald-500",
    text: "text-emerald-600 dark:text-emerald-500",
  },
  violet: {
    bg: "bg-violet-600 dark:bg-violet-500",
    stroke: "stroke-violet-600 dark:stroke-violet-500",
    fill: "fill-violet-600 dark:fill-violet-500",
    text: "text-violet-600 dark:text-violet-500",
  },
  amber: {
    bg: "bg-amber-500 dark:bg-amber-400",
    stroke: "stroke-amber-500 dark:stroke-amber-400",
    fill: "fill-amber-500 dark:fill-amber-400",
    text: "text-amber-500 dark:text-amber-400",
  },
  gray: {
    bg: "bg-gray-500 dark:bg-gray-400",
    stroke: "stroke-gray-500 dark:stroke-gray-400",
    fill: "fill-gray-500 dark:fill-gray-400",
    text: "text-gray-500 dark:text-gray-400",
  },
} as const satisfies Record<string, Record<ColorUtility, string>>;

export type ChartColor = keyof typeof chartColors;

export const AvailableChartColors = Object.keys(chartColors) as ChartColor[];

/** Each category gets the colour at its position, cycling when there are more categories. */
export function constructCategoryColors(categories: string[], colors: ChartColor[]): Map<string, ChartColor> {
  const categoryColors = new Map<string, ChartColor>();
  categories.forEach((category, index) => categoryColors.set(category, colors[index % colors.length]));
  return categoryColors;
}

export function getColorClassName(color: ChartColor, type: ColorUtility): string {
  return chartColors[color]?.[type] ?? chartColors.gray[type];
}

/** The y-axis domain: from 0 unless `autoMinValue`, explicit bounds winning. */
export function getYAxisDomain(autoMinValue: boolean, minValue: number | undefined, maxValue: number | undefined): [number | "auto", number | "auto"] {
  return [autoMinValue ? "auto" : (minValue ?? 0), maxValue ?? "auto"];
}
