import { describe, expect, it } from "vitest";
import { storableJson } from "./json-escapes";
import { isTwoByte, oneByteJson } from "./one-byte-text";

describe("oneByteJson", () => {
  it("keeps the JSON value and escapes only characters beyond Latin-1", () => {
    const value = { message: "Zahlung fehlgeschlagen … für Müller 🚨 支付失败", plain: "ok" };
    const json = oneByteJson(JSON.stringify(value));
    expect(JSON.parse(json)).toEqual(value);
    expect(json).toContain("Müller");
    expect(json).toContain("\\u2026");
    expect(json).toContain("\\ud83d\\udea8");
    expect(isTwoByte(json)).toBe(false);
  });

  it("leaves Latin-1 JSON as it is", () => {
    const json = JSON.stringify({ city: "Zürich", note: "naïve café" });
    expect(oneByteJson(json)).toBe(json);
    expect(isTwoByte(json)).toBe(false);
  });

  it("runs after storableJson: a lone surrogate stays U+FFFD, a pair stays a pair", () => {
    const json = oneByteJson(storableJson(JSON.stringify({ lone: "a\ud800b", pair: "🚨" })));
    expect(JSON.parse(json)).toEqual({ lone: "a\ufffdb", pair: "🚨" });
  });
});
