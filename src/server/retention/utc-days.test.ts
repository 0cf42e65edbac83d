import { describe, expect, it } from "vitest";
import { addDays, assertDay, daysBetween, weekStartOf } from "./utc-days";

describe("UTC days", () => {
  it("finds the Monday of a day's week, across months and years", () => {
    expect(weekStartOf("2026-11-23")).toBe("2026-11-23"); // a Monday
    expect(weekStartOf("2026-11-28")).toBe("2026-11-23"); // Saturday
    expect(weekStartOf("2026-11-29")).toBe("2026-11-23"); // Sunday
    expect(weekStartOf("2026-11-30")).toBe("2026-11-30");
    expect(weekStartOf("2027-01-01")).toBe("2026-12-28");
    expect(weekStartOf("1970-01-01")).toBe("1969-12-29");
  });

  it("counts days across a leap day, and lists both ends", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(daysBetween("2026-12-30", "2027-01-02")).toEqual(["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"]);
  });

  it("refuses anything but a day for DDL", () => {
    expect(() => assertDay("2026-11-28'); drop table occurrences; --")).toThrow("not a UTC day");
    expect(() => assertDay("2026-13-01")).toThrow("not a UTC day");
  });
});
