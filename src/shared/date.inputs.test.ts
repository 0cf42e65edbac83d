import { describe, expect, it } from "vitest";
import { IsoDateTime, IsoDay } from "./date.inputs";

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe("strict dates", () => {
  it("takes ISO days and date-times with Z or an offset, and Date objects, from 1970 to 9999", () => {
    for (const text of ["1970-01-01", "2026-02-28T10:00Z", "2026-02-28T10:00:00.5+02:00", "9999-12-31T23:59:59.999Z"]) {
      expect(IsoDateTime.safeParse(text).success, text).toBe(true);
    }
    expect(IsoDateTime.parse("2026-02-28T10:00:00+02:00")).toEqual(new Date("2026-02-28T08:00:00Z"));
    expect(IsoDateTime.safeParse(new Date("2026-01-01")).success).toBe(true);
  });

  it("refuses what V8 would guess at or PostgreSQL would fail on", () => {
    for (const text of ["1", "yesterday", "2026-02-30", "2026-01-01T10:00", "+099999-01-01T00:00:00Z", "2026-01-01T25:00Z"]) {
      expect(messageOf(IsoDateTime.safeParse(text)), text).toBe("must be a parseable date");
    }
    expect(messageOf(IsoDateTime.safeParse("0000-01-01"))).toBe("must be a date between 1970-01-01 and 9999-12-31");
    expect(messageOf(IsoDateTime.safeParse(new Date(Date.UTC(99999, 0, 1))))).toBe("must be a date between 1970-01-01 and 9999-12-31");
  });

  it("takes only existing days from 1970 on as a day", () => {
    expect(IsoDay.safeParse("2028-02-29").success).toBe(true);
    expect(messageOf(IsoDay.safeParse("2026-02-29"))).toBe("2026-02-29 is not a calendar day");
    expect(messageOf(IsoDay.safeParse("0000-01-01"))).toBe("0000-01-01 is not a date between 1970-01-01 and 9999-12-31");
    expect(messageOf(IsoDay.safeParse("20260-01-01"))).toBe("must be a date like 2026-11-21");
  });
});
