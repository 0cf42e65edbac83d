import { describe, expect, it } from "vitest";
import { lastUtcDays, parseUtcDay, utcDayCount, utcDaysBetween, zeroFill } from "./utc-days";

describe("UTC days", () => {
  it("parses real days only", () => {
    expect(parseUtcDay("2026-02-28")).toBe(Date.UTC(2026, 1, 28));
    expect(parseUtcDay("2026-02-30")).toBeNull();
    expect(parseUtcDay("2026-13-01")).toBeNull();
  });

  it("lists an inclusive range across a month and a leap day", () => {
    expect(utcDaysBetween(parseUtcDay("2028-02-28")!, parseUtcDay("2028-03-01")!)).toEqual(["2028-02-28", "2028-02-29", "2028-03-01"]);
    expect(utcDaysBetween(parseUtcDay("2026-05-05")!, parseUtcDay("2026-05-05")!)).toEqual(["2026-05-05"]);
  });

  it("counts a range without listing it", () => {
    expect(utcDayCount(parseUtcDay("2028-02-28")!, parseUtcDay("2028-03-01")!)).toBe(3);
    expect(utcDayCount(parseUtcDay("2026-05-05")!, parseUtcDay("2026-05-05")!)).toBe(1);
    expect(utcDayCount(parseUtcDay("2026-05-05")!, parseUtcDay("2026-05-04")!)).toBe(0);
    expect(utcDayCount(parseUtcDay("1970-01-01")!, parseUtcDay("9999-12-31")!)).toBe(2_932_897);
  });

  it("zero-fills missing days in order", () => {
    expect(zeroFill(["2026-01-01", "2026-01-02", "2026-01-03"], [{ day: "2026-01-02", count: 4 }])).toEqual([
      { date: "2026-01-01", count: 0 },
      { date: "2026-01-02", count: 4 },
      { date: "2026-01-03", count: 0 },
    ]);
  });

  it("ends the last N days today, in UTC", () => {
    expect(lastUtcDays(14, new Date("2026-11-21T23:30:00-05:00"))).toEqual({ from: "2026-11-09", to: "2026-11-22" });
  });
});
