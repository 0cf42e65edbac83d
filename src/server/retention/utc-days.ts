/** UTC days as `YYYY-MM-DD`, the unit partitions and retention count in. */

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const dayOf = (time: Date): string => time.toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  return dayOf(new Date(Date.parse(`${assertDay(day)}T00:00:00Z`) + days * DAY_MS));
}

/** Every day from `first` to `last`, both included. */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (let day = assertDay(first); day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Days end up in DDL (partition bounds cannot be parameters): only this exact shape passes. */
export function assertDay(day: string): string {
  if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw new Error(`not a UTC day: ${day}`);
  return day;
}

/** The Monday (UTC) of the week a day is in: weeks are what partitions hold. */
export function weekStartOf(day: string): string {
  const days = Math.round(Date.parse(`${assertDay(day)}T00:00:00Z`) / DAY_MS);
  // 1970-01-01 was a Thursday: three days after a Monday.
  return addDays(day, -((((days + 3) % 7) + 7) % 7));
}
