/** Display formatting shared by the triage screens. Days are UTC days, like the daily statistics. */

const compactNumber = new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 1 });
const fullNumber = new Intl.NumberFormat();
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const shortDay = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

const DAY_MS = 86_400_000;

export function formatCount(value: number): string {
  return value < 10_000 ? fullNumber.format(value) : compactNumber.format(value);
}

export function formatNumber(value: number): string {
  return fullNumber.format(value);
}

export function formatDateTime(date: Date): string {
  return dateTime.format(date);
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

/** "3 minutes ago", "yesterday", "in 2 hours" (clock skew between SDK and server happens). */
export function formatRelative(date: Date, now: number = Date.now()): string {
  let value = (date.getTime() - now) / 1000;
  if (Math.abs(value) < 10) return "just now";
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return relative.format(Math.round(value), "year");
}

/** The UTC calendar day of a date, as the statistics API names days: "2026-11-21". */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The inclusive range of the last `days` UTC days, today included. */
export function lastDays(days: number, now: Date = new Date()): { from: string; to: string } {
  return { from: isoDay(new Date(now.getTime() - (days - 1) * DAY_MS)), to: isoDay(now) };
}

/** "2026-11-21" → "Nov 21" (the day itself, whatever the viewer's time zone). */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) ? day : shortDay.format(date);
}

/** First and last instant of UTC days, for filters that take timestamps. */
export function startOfDay(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

export function endOfDay(day: string): Date {
  return new Date(`${day}T23:59:59.999Z`);
}

const BYTE_UNITS = ["KB", "MB", "GB", "TB"];

/** "512 B", "1.5 KB", "23 MB" (units of 1,024; one decimal below 10). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes;
  let unit = "B";
  for (const next of BYTE_UNITS) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, "") : Math.round(value)} ${unit}`;
}
