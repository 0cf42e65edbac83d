const DAY_MS = 86_400_000;

/** Milliseconds of a `YYYY-MM-DD` UTC day, or null for a day that does not exist (2026-02-30). */
export function parseUtcDay(day: string): number | null {
  const time = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day) return null;
  return time;
}

export const formatUtcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** How many UTC days from `from` to `to`, both included (0 when `to` is earlier), without listing them. */
export const utcDayCount = (from: number, to: number) => Math.max(0, Math.floor((to - from) / DAY_MS) + 1);

/** Every UTC day from `from` to `to`, both included, oldest first; callers bound the range first. */
export function utcDaysBetween(from: number, to: number): string[] {
  const days: string[] = [];
  for (let time = from; time <= to; time += DAY_MS) days.push(formatUtcDay(time));
  return days;
}

/** The last `count` UTC days ending today (included). */
export function lastUtcDays(count: number, now = new Date()): { from: string; to: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: formatUtcDay(today - (count - 1) * DAY_MS), to: formatUtcDay(today) };
}

/** Counts per day spread over every day of the range, missing days as 0. */
export function zeroFill(days: string[], counts: { day: string; count: number }[]) {
  const byDay = new Map(counts.map((row) => [row.day, row.count]));
  return days.map((date) => ({ date, count: byDay.get(date) ?? 0 }));
}
