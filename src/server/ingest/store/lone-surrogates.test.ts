import { describe, expect, it } from "vitest";
import { withoutLoneSurrogateEscapes } from "./lone-surrogates";

describe("withoutLoneSurrogateEscapes", () => {
  const clean = (value: unknown) => JSON.parse(withoutLoneSurrogateEscapes(JSON.stringify(value)));

  it("replaces lone high and low surrogates with U+FFFD", () => {
    expect(clean({ a: "x\ud800", b: "\udfffy", c: "\udbff\udbff" })).toEqual({ a: "x\ufffd", b: "\ufffdy", c: "\ufffd\ufffd" });
  });

  it("keeps pairs, escaped backslashes and text that only looks like an escape", () => {
    const value = { pair: "😀", literal: "\\ud800", backslashThenLone: "\\\ud800", key: "\\\\ud800" };
    expect(clean(value)).toEqual({ pair: "😀", literal: "\\ud800", backslashThenLone: "\\\ufffd", key: "\\\\ud800" });
  });

  it("returns the same string when there is nothing to replace", () => {
    const json = JSON.stringify({ message: "plain", emoji: "😀" });
    expect(withoutLoneSurrogateEscapes(json)).toBe(json);
  });
});
