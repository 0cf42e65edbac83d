import { describe, expect, it } from "vitest";
import { normalizeSentryEvent } from "../normalize/event.normalizer";
import { capUtf8Bytes, INDEXED_TEXT_MAX_BYTES } from "./indexed-text";
import { prepareOccurrence } from "./prepared-occurrence";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

describe("capUtf8Bytes", () => {
  it("returns a text that fits as it is", () => {
    const text = "Zürich 支付 🚨";
    expect(capUtf8Bytes(text, bytes(text))).toBe(text);
    expect(capUtf8Bytes("a".repeat(5000), 5000)).toBe("a".repeat(5000));
    expect(capUtf8Bytes("", 0)).toBe("");
  });

  it("counts one, two, three and four bytes per character", () => {
    expect(capUtf8Bytes("a".repeat(10), 4)).toBe("aaaa");
    expect(capUtf8Bytes("ü".repeat(10), 5)).toBe("üü");
    expect(capUtf8Bytes("支".repeat(10), 8)).toBe("支支");
    expect(capUtf8Bytes("𝄞".repeat(10), 11)).toBe("𝄞𝄞");
  });

  it("never cuts inside a surrogate pair", () => {
    // 1,536 UTF-16 units of one astral character: 768 characters, 3,072 bytes.
    const capped = capUtf8Bytes("𝄞".repeat(768), 1023);
    expect(capped).toBe("𝄞".repeat(255));
    expect(capped.at(-1)).not.toMatch(/[\ud800-\udbff]/);
    for (let max = 0; max < 40; max++) {
      const cut = capUtf8Bytes("a𝄞ü支𝄞".repeat(8), max);
      expect(bytes(cut)).toBeLessThanOrEqual(max);
      expect(Buffer.from(cut, "utf8").toString("utf8")).toBe(cut);
      expect((cut as unknown as { isWellFormed(): boolean }).isWellFormed()).toBe(true);
    }
  });

  it("counts a lone surrogate as the three bytes of the U+FFFD it is stored as", () => {
    expect(capUtf8Bytes("\ud800".repeat(10), 6)).toBe("\ud800\ud800");
    expect(capUtf8Bytes("a\udc00b\udfff".repeat(5), 5)).toBe("a\udc00b");
    // A high surrogate ending the text has no pair either.
    expect(capUtf8Bytes(`${"a".repeat(9)}\ud800`, 11)).toBe("a".repeat(9));
  });
});

describe("prepareOccurrence", () => {
  it("caps every text bound for an indexed column to INDEXED_TEXT_MAX_BYTES, past what the normaliser keeps", () => {
    const wide = (n: number, base: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(base + i)).join("");
    const occurrence = normalizeSentryEvent(
      { event_id: "a".repeat(32), level: "error", message: "wide", user: { id: wide(250, 0x4e00) } },
      { limits: { maxTagLength: 4000 } },
    );
    occurrence.tags = { [wide(1536, 0x4e00)]: wide(768, 0x1d100) };
    const prepared = prepareOccurrence({
      organizationId: "org",
      projectId: "00000000-0000-0000-0000-000000000001",
      occurrence,
      grouping: {
        fingerprint: "f".repeat(64),
        version: 2,
        title: "wide",
        culprit: null,
        components: [],
        parts: { exceptionType: wide(1536, 0x4e00), crashFrame: `${wide(1024, 0x5e00)}|${wide(512, 0x6e00)}`, messageTemplate: null },
      },
      receivedAt: new Date(),
    });
    const texts = [prepared.issue.exception_type, prepared.issue.crash_frame, JSON.parse(prepared.rowJson).user_key, ...Object.entries(prepared.tags).flat()];
    for (const text of texts) expect(bytes(text as string)).toBeLessThanOrEqual(INDEXED_TEXT_MAX_BYTES);
    expect(prepared.issue.crash_frame).toBe(wide(341, 0x5e00));
    expect(Object.values(prepared.tags)).toContain(wide(256, 0x1d100));
  });
});
