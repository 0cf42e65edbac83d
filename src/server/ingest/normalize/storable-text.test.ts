/**
 * Battery: out-of-range values that are valid JSON. A lone UTF-16 surrogate (`"\ud800"`) and
 * U+0000 are valid JSON string content, but PostgreSQL text cannot hold them.
 */
import { describe, expect, it } from "vitest";
import { storableText } from "./storable-text";

describe("storableText", () => {
  it("replaces lone surrogates and U+0000 with U+FFFD and keeps surrogate pairs", () => {
    expect(storableText("a\ud800b")).toBe("a\ufffdb");
    expect(storableText("\udc00")).toBe("\ufffd");
    expect(storableText("end\ud83d")).toBe("end\ufffd");
    expect(storableText("nul\u0000")).toBe("nul\ufffd");
    expect(storableText("\udc00\ud800")).toBe("\ufffd\ufffd");
    expect(storableText("emoji 🚨 \ud83d\udea8")).toBe("emoji 🚨 🚨");
  });

  it("returns the very same string when there is nothing to replace (the hot path)", () => {
    const clean = "checkout-🚨-ünïcödé";
    expect(storableText(clean)).toBe(clean);
    expect(storableText("")).toBe("");
  });
});
