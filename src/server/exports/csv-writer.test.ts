import { describe, expect, it } from "vitest";
import { csvField, csvRow } from "./csv-writer";

describe("csv writer", () => {
  it("quotes as RFC 4180 says: commas, quotes, CR and LF; quotes doubled", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField(new Date("2026-11-28T10:00:00Z"))).toBe("2026-11-28T10:00:00.000Z");
  });

  it("makes a text cell that a spreadsheet would run as a formula read as text", () => {
    expect(csvField('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvField("+1+1")).toBe("'+1+1");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tcmd")).toBe("'\tcmd");
    expect(csvField("TypeError: =x")).toBe("TypeError: =x");
    // Numbers are ours, not SDK input: a count stays a number.
    expect(csvField(-5)).toBe("-5");
  });

  it("ends each row with CRLF", () => {
    expect(csvRow(["a", 1, null, "b,c"])).toBe('a,1,,"b,c"\r\n');
  });
});
