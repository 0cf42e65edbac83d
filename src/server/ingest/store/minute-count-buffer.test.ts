import { describe, expect, it } from "vitest";
import { minuteOf } from "./minute-count-buffer";

describe("minuteOf", () => {
  it("names the start of the minute an instant falls in, as ISO text", () => {
    expect(minuteOf(new Date("2026-11-27T06:41:59.999Z"))).toBe("2026-11-27T06:41:00.000Z");
    expect(minuteOf(new Date("2026-11-27T06:42:00.000Z"))).toBe("2026-11-27T06:42:00.000Z");
  });

  it("answers right when the minutes asked about go back and forth (it keeps only the last one's text)", () => {
    const asked = ["06:41:10", "06:41:50", "06:43:05", "06:41:30", "06:43:59", "07:00:00"].map((time) => minuteOf(new Date(`2026-11-27T${time}Z`)));
    expect(asked).toEqual([
      "2026-11-27T06:41:00.000Z",
      "2026-11-27T06:41:00.000Z",
      "2026-11-27T06:43:00.000Z",
      "2026-11-27T06:41:00.000Z",
      "2026-11-27T06:43:00.000Z",
      "2026-11-27T07:00:00.000Z",
    ]);
  });
});
