import { z } from "zod";

/**
 * The dates the product accepts: 1970-01-01 to 9999-12-31, UTC. Four-digit years are what ISO 8601
 * text and PostgreSQL's date input agree on; year 0 or 99999 used to reach the database and fail there.
 */
export const MIN_DATE = new Date("1970-01-01T00:00:00.000Z");
export const MAX_DATE = new Date("9999-12-31T23:59:59.999Z");
const DATE_RANGE = "between 1970-01-01 and 9999-12-31";

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** Whether y-m-d exists: V8 reads 2026-02-30 as March 2 instead of refusing it. */
function isCalendarDay(year: number, month: number, day: number): boolean {
  const time = new Date(0);
  time.setUTCFullYear(year, month - 1, day); // Date.UTC would read years 0–99 as 1900–1999
  return time.getUTCFullYear() === year && time.getUTCMonth() === month - 1 && time.getUTCDate() === day;
}

/**
 * Query strings carry ISO 8601 text (a day, or a date-time with Z or an offset); tRPC carries Date
 * objects. Other text is refused rather than guessed at (V8 reads "1" as 2001-01-01).
 */
function strictDate(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const match = ISO_DATE_TIME.exec(value);
  if (!match || !isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]))) return new Date(Number.NaN);
  return new Date(value);
}

/** A filter bound: ISO text from query strings, a Date from tRPC; within MIN_DATE..MAX_DATE. */
export const IsoDateTime = z.preprocess(
  strictDate,
  z.date({ message: "must be a parseable date" }).min(MIN_DATE, `must be a date ${DATE_RANGE}`).max(MAX_DATE, `must be a date ${DATE_RANGE}`),
);

/** UTC calendar day, inclusive bounds of daily statistics: `YYYY-MM-DD` that exists, from 1970 on. */
export const IsoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-11-21")
  .superRefine((day, ctx) => {
    const [year, month, dayOfMonth] = day.split("-").map(Number);
    if (!isCalendarDay(year, month, dayOfMonth)) ctx.addIssue({ code: "custom", message: `${day} is not a calendar day` });
    else if (day < "1970-01-01") ctx.addIssue({ code: "custom", message: `${day} is not a date ${DATE_RANGE}` });
  });
