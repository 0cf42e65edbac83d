/**
 * Battery A2/A4/A5 at the parser level: the malformed corpus answers a typed error (→ 400/413),
 * never an exception, and unknown item types alone are fine.
 */
import { describe, expect, it } from "vitest";
import { parseEnvelope } from "../../src/server/ingest/sentry/envelope.parser";
import { INGEST_ERROR_STATUS } from "../../src/server/ingest/http/ingest-error";

const ID = "9ec79c33ec9942ab8353589fcb2e04dc";
const EVENT = `{"event_id":"${ID}","message":"boom"}`;
const VALID = `{"event_id":"${ID}"}\n{"type":"event","length":${EVENT.length}}\n${EVENT}\n`;

function expectError(body: Buffer | string, code: string, limits = {}) {
  const result = parseEnvelope(Buffer.isBuffer(body) ? body : Buffer.from(body), limits);
  expect(result.ok).toBe(false);
  if (!result.ok) {
    expect(result.error.code).toBe(code);
    expect([400, 413]).toContain(INGEST_ERROR_STATUS[result.error.code]);
  }
}

describe("malformed envelope corpus", () => {
  it("accepts the reference envelope", () => {
    expect(parseEnvelope(Buffer.from(VALID)).ok).toBe(true);
  });

  it("rejects every truncation that cuts into an item", () => {
    // Cutting inside the header line or a `length` payload must fail; cutting a newline-delimited
    // tail is indistinguishable from a shorter envelope, so only length-framed items are checked.
    const headerEnd = VALID.indexOf("\n");
    const payloadStart = VALID.indexOf("\n", headerEnd + 1) + 1;
    for (let cut = 0; cut < VALID.length - 1; cut++) {
      const result = parseEnvelope(Buffer.from(VALID.slice(0, cut)));
      if (cut < headerEnd || (cut >= payloadStart && cut < payloadStart + EVENT.length)) {
        expect(result.ok, `cut at ${cut}`).toBe(false);
      }
    }
  });

  it.each([
    ["empty body", ""],
    ["non-JSON envelope header", "hello\n"],
    ["array envelope header", "[1]\n"],
    ["non-JSON item header", `{}\nnot-json\n{}`],
    ["item header without type", `{}\n{"length":2}\n{}`],
    ["item header with numeric type", `{}\n{"type":5}\n{}`],
    ["negative length", `{}\n{"type":"event","length":-1}\n{}`],
    ["fractional length", `{}\n{"type":"event","length":1.5}\n{}`],
    ["string length", `{}\n{"type":"event","length":"2"}\n{}`],
    ["huge length", `{}\n{"type":"event","length":9007199254740993}\n{}`],
    ["length past the end", `{}\n{"type":"event","length":500}\n${EVENT}`],
    ["length too short (no newline after payload)", `{}\n{"type":"event","length":5}\n${EVENT}`],
    ["length too long by one", `{}\n{"type":"attachment","length":3}\nab\nX`],
    ["event payload not JSON", `{}\n{"type":"event"}\n{"message":}`],
  ])("%s → malformed", (_name, body) => {
    expectError(body, "malformed");
  });

  it("invalid UTF-8 in a header or an event → malformed", () => {
    const bad = Buffer.from([0xff, 0xfe, 0x80]);
    expectError(Buffer.concat([Buffer.from('{"a":"'), bad, Buffer.from('"}')]), "malformed");
    expectError(Buffer.concat([Buffer.from('{}\n{"type":"event"}\n{"message":"'), bad, Buffer.from('"}')]), "malformed");
    // Attachments are bytes, not text: invalid UTF-8 there is fine.
    const attachment = parseEnvelope(Buffer.concat([Buffer.from('{}\n{"type":"attachment","length":3}\n'), bad]));
    expect(attachment.ok).toBe(true);
  });

  it.each(["../../x", "9ec79c33ec9942ab8353589fcb2e04d", "9ec79c33ec9942ab8353589fcb2e04dcz", "", 42, "<script>"])(
    "event_id %j → invalid_event_id",
    (eventId) => {
      expectError(`${JSON.stringify({ event_id: eventId })}\n`, "invalid_event_id");
    },
  );

  it("10,000 items → too_many_items, found without parsing them all", () => {
    const body = "{}\n" + '{"type":"client_report"}\n{}\n'.repeat(10_000);
    expectError(body, "too_many_items");
  });

  it("unknown item types alone are accepted and skipped", () => {
    const result = parseEnvelope(Buffer.from('{}\n{"type":"x-future"}\nwhatever\n{"type":"another","length":3}\n\u0000\u0001\u0002'));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.envelope.items.every((i) => i.skipped)).toBe(true);
  });

  it("100,000-deep nesting → too_deep, no RangeError", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expectError(`{}\n{"type":"event"}\n{"a":${deep}}`, "too_deep");
    expectError(`{"a":${deep}}`, "too_deep");
    expectError(`{}\n{"type":"session","deep":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}\n{}`, "too_deep");
  });

  it("a 10 MiB event → too_large before JSON.parse", () => {
    const big = `{"message":"${"x".repeat(10 * 1024 * 1024)}"}`;
    expectError(`{}\n{"type":"event"}\n${big}`, "too_large");
  });
});
