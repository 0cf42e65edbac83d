import { describe, expect, it } from "vitest";
import { loadCaptures } from "../../../../test/helpers/sdk-fixtures";
import { replayThroughPipeline } from "../../../../test/helpers/sdk-pipeline";
import { parseEnvelope } from "./envelope.parser";

const ID = "9ec79c33ec9942ab8353589fcb2e04dc";
const env = (text: string) => Buffer.from(text);

describe("parseEnvelope on real SDK captures", () => {
  const envelopes = [...loadCaptures("node"), ...loadCaptures("python")].filter((c) => c.url.includes("/envelope"));

  it.each(envelopes.map((c) => [`${c.folder}/${c.file}`, c] as const))("%s parses with the item types of its name", async (_name, capture) => {
    const { decoded } = await replayThroughPipeline(capture);
    expect(decoded.toString("utf8")).toBe(capture.body);
    const result = parseEnvelope(decoded);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const expectedTypes = capture.file.replace(/^\d+-[a-z-]+?-(event|session|sessions|client_report)\.json$/, "$1");
    expect(result.envelope.items.map((i) => i.type)).toEqual([expectedTypes]);
    expect(result.envelope.items.every((i) => !i.skipped && i.json !== undefined)).toBe(true);
  });

  it("reads the envelope header of the node SDK", async () => {
    const capture = loadCaptures("node").find((c) => c.file === "002-handled-event.json")!;
    const result = parseEnvelope((await replayThroughPipeline(capture)).decoded);
    expect(result.ok && result.envelope.header).toMatchObject({
      eventId: "b071d760d2ce420a847c13668086f128",
      sentAt: "2026-11-21T14:19:47.762Z",
      dsn: null,
    });
  });
});

describe("parseEnvelope", () => {
  it("honours `length` in bytes, not characters", () => {
    const payload = '{"message":"日本語 ✓ \\n"}';
    const bytes = Buffer.byteLength(payload);
    expect(bytes).toBeGreaterThan(payload.length);
    const result = parseEnvelope(env(`{"event_id":"${ID}"}\n{"type":"event","length":${bytes}}\n${payload}\n{"type":"attachment","length":3}\na\nb`));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.envelope.items[0].json).toEqual({ message: "日本語 ✓ \n" });
    expect(result.envelope.items[1].payload.toString()).toBe("a\nb");
  });

  it("takes an item without length up to the next newline or EOF", () => {
    const result = parseEnvelope(env(`{}\n{"type":"session"}\n{"sid":"x"}\n{"type":"client_report"}\n{"discarded_events":[]}`));
    expect(result.ok && result.envelope.items.map((i) => i.json)).toEqual([{ sid: "x" }, { discarded_events: [] }]);
  });

  it("accepts a header-only envelope and tolerates trailing newlines", () => {
    expect(parseEnvelope(env("{}"))).toEqual({ ok: true, envelope: { header: { eventId: null, dsn: null, sentAt: null, raw: {} }, items: [] } });
    const result = parseEnvelope(env('{}\n{"type":"session","length":2}\n{}\n\n\n'));
    expect(result.ok && result.envelope.items.length).toBe(1);
  });

  it("accepts zero-length payloads", () => {
    const result = parseEnvelope(env('{}\n{"type":"attachment","length":0}\n\n{"type":"attachment"}\n'));
    expect(result.ok && result.envelope.items.map((i) => i.payload.length)).toEqual([0, 0]);
  });

  it("normalises dashed UUID event ids", () => {
    const result = parseEnvelope(env('{"event_id":"9EC79C33-EC99-42AB-8353-589FCB2E04DC"}'));
    expect(result.ok && result.envelope.header.eventId).toBe(ID);
  });

  it("keeps unknown item types, marked skipped and unparsed", () => {
    const result = parseEnvelope(env('{}\n{"type":"hologram"}\n{"not":"parsed"}'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.envelope.items).toHaveLength(1);
    expect(result.envelope.items[0]).toMatchObject({ type: "hologram", skipped: true });
    expect(result.envelope.items[0].json).toBeUndefined();
  });

  it("never fails the envelope for a broken session or client report", () => {
    const result = parseEnvelope(env('{}\n{"type":"session"}\nnot json\n{"type":"client_report"}\n{"a":'));
    expect(result.ok && result.envelope.items.map((i) => i.json)).toEqual([undefined, undefined]);
  });

  it("requires event items to be JSON objects", () => {
    expect(parseEnvelope(env('{}\n{"type":"event"}\n[1,2]'))).toMatchObject({ ok: false, error: { code: "malformed" } });
    expect(parseEnvelope(env('{}\n{"type":"event"}\n{"a":'))).toMatchObject({ ok: false, error: { code: "malformed" } });
    expect(parseEnvelope(env('{}\n{"type":"transaction"}\n'))).toMatchObject({ ok: false, error: { code: "malformed" } });
  });

  it("enforces the event item size before parsing", () => {
    const payload = JSON.stringify({ message: "x".repeat(2000) });
    const result = parseEnvelope(env(`{}\n{"type":"event"}\n${payload}`), { maxEventBytes: 1000 });
    expect(result).toMatchObject({ ok: false, error: { code: "too_large" } });
  });

  it("drops a JSON item other than an event over the per-item size unparsed, as Relay does, and keeps the rest", () => {
    const report = JSON.stringify({ discarded_events: [], padding: "x".repeat(2000) });
    const result = parseEnvelope(env(`{}\n{"type":"client_report"}\n${report}\n{"type":"session"}\n{"sid":"s"}`), { maxEventBytes: 1000 });
    expect(result.ok && result.envelope.items.map(({ type, json, oversized }) => ({ type, json, oversized }))).toEqual([
      { type: "client_report", json: undefined, oversized: true },
      { type: "session", json: { sid: "s" }, oversized: undefined },
    ]);
  });

  it("enforces the item count", () => {
    const body = "{}\n" + '{"type":"session"}\n{}\n'.repeat(3);
    expect(parseEnvelope(env(body), { maxItems: 3 }).ok).toBe(true);
    expect(parseEnvelope(env(body), { maxItems: 2 })).toMatchObject({ ok: false, error: { code: "too_many_items" } });
  });

  it("enforces JSON depth in headers and payloads", () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    expect(parseEnvelope(env(`{}\n{"type":"event"}\n{"a":${deep(10)}}`), { maxJsonDepth: 10 })).toMatchObject({ ok: false, error: { code: "too_deep" } });
    expect(parseEnvelope(env(`{}\n{"type":"event"}\n{"a":${deep(9)}}`), { maxJsonDepth: 10 }).ok).toBe(true);
    // Brackets inside strings do not count.
    expect(parseEnvelope(env(`{"x":"${"[".repeat(100)}\\""}`), { maxJsonDepth: 2 }).ok).toBe(true);
  });

  it("ends a string at a quote after an even run of backslashes, so the nesting after it still counts", () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    // "a\\" is a string ending in one backslash: the quote after it closes the string.
    expect(parseEnvelope(env(`{}\n{"type":"event"}\n{"x":"a\\\\","y":${deep(10)}}`), { maxJsonDepth: 10 })).toMatchObject({
      ok: false,
      error: { code: "too_deep" },
    });
    // "a\\\"" holds a backslash and a quote: brackets before the real closing quote are text.
    expect(parseEnvelope(env(`{}\n{"type":"event"}\n{"x":"a\\\\\\"${"[".repeat(20)}","y":${deep(9)}}`), { maxJsonDepth: 10 }).ok).toBe(true);
  });
});
