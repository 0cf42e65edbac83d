import { describe, expect, it } from "vitest";
import { cleanText, displayValue, prettyJson, safeHttpUrl } from "./untrusted-text";

describe("cleanText", () => {
  it("removes ANSI colour and OSC sequences", () => {
    expect(cleanText("\u001b[31mred\u001b[0m and \u001b[1;32mbold green\u001b[m")).toBe("red and bold green");
    expect(cleanText("\u001b]8;;http://x\u0007link\u001b]8;;\u0007")).toBe("link");
    expect(cleanText("\u009b31mc1\u009b0m")).toBe("c1");
  });

  it("shows other control characters as visible pictures and keeps newlines and tabs", () => {
    expect(cleanText("a\u0000b\u0007c")).toBe("a\u2400b\u2407c");
    expect(cleanText("lone \u001b")).toBe("lone \u241b");
    expect(cleanText("line 1\n\tline 2\r\n")).toBe("line 1\n\tline 2\r\n");
    expect(cleanText("del\u007f")).toBe("del\u2421");
  });

  it("drops bidirectional overrides", () => {
    expect(cleanText("admin\u202egnp.exe")).toBe("admingnp.exe");
  });

  it("leaves markup as characters (React renders it as text)", () => {
    expect(cleanText('<img src=x onerror="alert(1)">')).toBe('<img src=x onerror="alert(1)">');
  });
});

describe("displayValue", () => {
  it("renders scalars as they are and objects as compact JSON", () => {
    expect(displayValue("x")).toBe("x");
    expect(displayValue(3)).toBe("3");
    expect(displayValue(false)).toBe("false");
    expect(displayValue(null)).toBe("");
    expect(displayValue({ a: [1, "\u001b[31mb"] })).toBe('{"a":[1,"\\u001b[31mb"]}');
  });

  it("survives values JSON cannot serialise", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(displayValue(cyclic)).toBe("[unserializable]");
  });
});

describe("safeHttpUrl", () => {
  it("accepts absolute http and https URLs", () => {
    expect(safeHttpUrl("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(safeHttpUrl("  HTTP://Example.com ")).toBe("http://example.com/");
  });

  it("refuses every other scheme, however it is spelled", () => {
    for (const value of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "java\nscript:alert(1)",
      "\u0001javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "/relative/path",
      "//evil.example",
      "",
      null,
      undefined,
    ]) {
      expect(safeHttpUrl(value)).toBeNull();
    }
  });
});

describe("prettyJson", () => {
  it("indents, keeps escape sequences visible and escapes bidirectional overrides", () => {
    expect(prettyJson({ a: "\u001b[31mx" })).toBe('{\n  "a": "\\u001b[31mx"\n}');
    expect(prettyJson("abc\u202edef")).toBe('"abc\\u202edef"');
    expect(JSON.parse(prettyJson("abc\u202edef"))).toBe("abc\u202edef");
  });
});
