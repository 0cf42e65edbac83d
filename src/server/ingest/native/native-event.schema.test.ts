/** Battery: out-of-range values that are valid JSON (U+0000 and lone surrogates in a native event). */
import { describe, expect, it } from "vitest";
import { parseNativeEvent } from "./native-event.schema";

describe("parseNativeEvent", () => {
  it("replaces U+0000 and lone surrogates in the name and in property keys and values, at any depth", () => {
    const parsed = parseNativeEvent({
      name: "signup\u0000",
      properties: { "plan\u0000": "pro\u0000", nested: { list: ["a\ud800", 1, null], "k\udc00": true }, fine: "🚨" },
    });
    expect(parsed).toEqual({
      name: "signup\ufffd",
      properties: { "plan\ufffd": "pro\ufffd", nested: { list: ["a\ufffd", 1, null], "k\ufffd": true }, fine: "🚨" },
    });
  });

  it("leaves clean events alone", () => {
    const properties = { plan: "pro", count: 3, path: "C:\\udo" };
    expect(parseNativeEvent({ name: "signup", properties }).properties).toEqual(properties);
    expect(parseNativeEvent({ name: "signup" })).toEqual({ name: "signup" });
  });
});
