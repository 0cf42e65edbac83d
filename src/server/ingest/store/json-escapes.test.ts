/**
 * Battery: out-of-range values that are valid JSON. JSON.stringify writes a lone surrogate as a
 * `\udXXX` escape and U+0000 as `\u0000`; PostgreSQL's json refuses to turn either into text, so
 * the escapes must be gone before the batch statement sees them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { storableText } from "../normalize/storable-text";
import { storableJson, storableJsonValue, withoutLoneSurrogateEscapes } from "./json-escapes";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
// Any UTF-16 code unit, so lone surrogates, pairs, U+0000 and backslashes all occur.
const codeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 40 });
const awkward = fc.string({ unit: fc.constantFrom("\\", "u", "d", "8", "0", "\ud800", "\udc00", "\u0000", "a", '"'), maxLength: 20 });

describe("storableJson", () => {
  it("replaces lone-surrogate and U+0000 escapes, not escaped backslashes followed by their text", () => {
    for (const value of ["\ud800", "a\udfffb", "\\\ud800", "\\ud800", "\\\\ud800", "\u0000", "\\u0000", "pair 🚨", "plain"]) {
      const cleaned = JSON.parse(storableJson(JSON.stringify({ value })));
      expect(cleaned.value).toBe(storableText(value));
    }
  });

  it("agrees with storableText on any string, as values and as keys", () => {
    fc.assert(
      fc.property(fc.oneof(codeUnits, awkward), (value) => {
        const cleaned = JSON.parse(storableJson(JSON.stringify({ [value]: [value] })));
        expect(cleaned).toEqual({ [storableText(value)]: [storableText(value)] });
      }),
      { seed, numRuns: 2_000 },
    );
  });

  it("returns the very same text when there is nothing to replace (the hot path)", () => {
    const json = JSON.stringify({ message: "no escapes here \u001b[31m red", path: "C:\\udo\\x" });
    expect(storableJson(json)).toBe(json);
  });
});

describe("withoutLoneSurrogateEscapes", () => {
  it("replaces lone surrogates and keeps U+0000 (the stored document keeps the event as sent)", () => {
    const cleaned = JSON.parse(withoutLoneSurrogateEscapes(JSON.stringify({ value: "a\ud800 \u0000 \\ud800 🚨" })));
    expect(cleaned.value).toBe("a\ufffd \u0000 \\ud800 🚨");
  });
});

describe("storableJsonValue", () => {
  it("returns a clean value itself and rebuilds one holding unstorable text", () => {
    const clean = { a: ["b", 1, { c: null }] };
    expect(storableJsonValue(clean)).toBe(clean);
    expect(storableJsonValue({ "k\u0000": ["v\ud800"] })).toEqual({ "k\ufffd": ["v\ufffd"] });
  });
});
