import { describe, expect, it } from "vitest";
import { trimJson } from "./value-coercion";

describe("trimJson", () => {
  it("returns JSON that needs no trimming as the very same value", () => {
    const input = JSON.parse('{"os":{"name":"Linux","version":"6.1"},"list":[1,"two",null,true,{"deep":["x"]}]}');
    expect(trimJson(input, 100)).toBe(input);
  });

  it("trims a long string deep inside, copying only the containers on its path", () => {
    const input = JSON.parse(`{"keep":{"a":1},"path":{"list":["short","${"x".repeat(50)}"]}}`);
    const before = JSON.stringify(input);
    const out = trimJson(input, 10) as any;
    expect(out.path.list).toEqual(["short", `${"x".repeat(9)}…`]);
    expect(out.keep).toBe(input.keep);
    expect(JSON.stringify(input)).toBe(before);
  });

  it("caps entries and key length, and cuts nesting at depth 20", () => {
    const wide = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(trimJson(wide, 100) as object)).toHaveLength(200);
    expect(
      trimJson(
        Array.from({ length: 250 }, (_, i) => i),
        100,
      ),
    ).toHaveLength(200);
    const longKey = { ["k".repeat(300)]: 1, short: 2 };
    expect(Object.keys(trimJson(longKey, 100) as object).map((k) => k.length)).toEqual([256, 5]);
    let nested: unknown = "bottom";
    for (let i = 0; i < 25; i++) nested = { n: nested };
    expect(JSON.stringify(trimJson(nested, 100))).toContain('"[Truncated]"');
  });

  it("keeps a __proto__ key as data when it copies", () => {
    const input = JSON.parse(`{"__proto__":{"polluted":true},"long":"${"y".repeat(20)}"}`);
    const out = trimJson(input, 5) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(["__proto__", "long"]);
    expect(({} as any).polluted).toBeUndefined();
  });

  it("turns values JSON cannot hold into null", () => {
    expect(trimJson(undefined, 10)).toBeNull();
    expect(trimJson(() => 1, 10)).toBeNull();
  });
});
