import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadCaptures, loadExpected } from "../../../../test/helpers/sdk-fixtures";
import { replayThroughPipeline } from "../../../../test/helpers/sdk-pipeline";
import { normalizeEventId } from "../normalize/event-id";
import { IngestError } from "../http/ingest-error";
import { readSentryPayload } from "./sentry-payload.reader";

const ID = "9ec79c33ec9942ab8353589fcb2e04dc";

function failure(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof IngestError) return e.code;
    throw e;
  }
}

describe("readSentryPayload on every capture", () => {
  for (const folder of ["node", "python"] as const) {
    const expected = loadExpected(folder);
    it(`${folder}: endpoint, item types, response id and event count match expected.json`, async () => {
      for (const capture of loadCaptures(folder)) {
        const want = expected.files[capture.file];
        const { endpoint, payload } = await replayThroughPipeline(capture);
        expect(endpoint).toBe(want.endpoint);
        expect(capture.headers["content-encoding"] ?? null).toBe(want.content_encoding);
        expect(payload.occurrences).toHaveLength(want.events.length);
        if (endpoint === "envelope") expect(payload.envelope?.items.map((i) => i.type)).toEqual(want.items);
        // Answer {"id": …} for events, {} for envelopes without one (sessions, client reports).
        expect(payload.responseId).toBe(payload.occurrences[0]?.eventId ?? payload.envelope?.header.eventId ?? null);
        if (want.events.length === 0 && folder === "python") expect(payload.responseId).toBeNull();
      }
    });
  }
});

describe("readSentryPayload", () => {
  it("uses the envelope header event_id when the event has none", () => {
    const body = Buffer.from(`{"event_id":"${ID}"}\n{"type":"event"}\n{"message":"m"}\n`);
    const payload = readSentryPayload("envelope", body);
    expect(payload.occurrences[0].eventId).toBe(ID);
    expect(payload.responseId).toBe(ID);
  });

  it("reads legacy base64+zlib store bodies", () => {
    const json = JSON.stringify({ event_id: ID, message: "legacy" });
    const body = Buffer.from(zlib.deflateSync(Buffer.from(json)).toString("base64"));
    expect(readSentryPayload("store", body).occurrences[0]).toMatchObject({ eventId: ID, message: "legacy" });
  });

  it("maps parser failures to IngestError", () => {
    expect(failure(() => readSentryPayload("envelope", Buffer.from("nope")))).toBe("malformed");
    expect(failure(() => readSentryPayload("store", Buffer.from("[" + "[".repeat(100) + "]".repeat(101))))).toBe("malformed");
    expect(failure(() => readSentryPayload("store", Buffer.from(`{"a":${"[".repeat(100)}${"]".repeat(100)}}`)))).toBe("too_deep");
    expect(failure(() => readSentryPayload("store", Buffer.from(JSON.stringify({ m: "x".repeat(2000) })), { ingestLimits: { maxEventBytes: 1000 } }))).toBe(
      "too_large",
    );
    expect(failure(() => readSentryPayload("store", Buffer.from('{"event_id":"../../x"}')))).toBe("invalid_event_id");
  });
});

describe("normalizeEventId", () => {
  it("accepts 32 hex with or without dashes and nothing else", () => {
    expect(normalizeEventId(ID.toUpperCase())).toBe(ID);
    expect(normalizeEventId("9ec79c33-ec99-42ab-8353-589fcb2e04dc")).toBe(ID);
    for (const bad of ["../../x", `${ID}0`, ID.slice(1), "9ec79c33-ec99-42ab-8353-589fcb2e04d-", null, 1, "g".repeat(32)]) {
      expect(normalizeEventId(bad)).toBeNull();
    }
  });
});
