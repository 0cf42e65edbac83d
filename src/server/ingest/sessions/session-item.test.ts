import { describe, expect, it } from "vitest";
import { readSessionItem, SessionOutcome } from "./session-item";

const receivedAt = new Date("2026-11-28T13:40:00Z");
const update = (fields: Record<string, unknown>, attrs: Record<string, unknown> = { release: "app@1.0.0", environment: "production" }) => ({
  sid: "5b0fc1c1a1f94f5bbd1a7f1c1e2a9a11",
  init: false,
  started: "2026-11-28T13:05:10.000Z",
  status: "ok",
  errors: 0,
  attrs,
  ...fields,
});

describe("readSessionItem", () => {
  it("reads an individual update: start hour and day, init, user, release and environment", () => {
    expect(readSessionItem("session", update({ init: true, did: "user-7" }), receivedAt)).toEqual([
      {
        kind: "session",
        release: "app@1.0.0",
        environment: "production",
        hour: "2026-11-28T13:00:00.000Z",
        day: "2026-11-28",
        sessionId: "5b0fc1c1a1f94f5bbd1a7f1c1e2a9a11",
        init: true,
        outcome: SessionOutcome.none,
        userKey: "user-7",
      },
    ]);
  });

  it.each([
    [{ status: "ok", errors: 0 }, SessionOutcome.none],
    [{ status: "exited", errors: 0 }, SessionOutcome.none],
    [{ status: "ok", errors: 2 }, SessionOutcome.errored],
    [{ status: "errored", errors: 0 }, SessionOutcome.errored],
    [{ status: "unhandled", errors: 1 }, SessionOutcome.errored],
    [{ status: "abnormal", errors: 0 }, SessionOutcome.abnormal],
    [{ status: "crashed", errors: 1 }, SessionOutcome.crashed],
  ])("status and errors %j make the outcome %i", (fields, outcome) => {
    expect(readSessionItem("session", update(fields), receivedAt)[0]).toMatchObject({ outcome });
  });

  it("drops sessions without a valid release (Sentry requires one), without an id, or started too long ago", () => {
    expect(readSessionItem("session", update({}, { environment: "production" }), receivedAt)).toEqual([]);
    expect(readSessionItem("session", update({}, { release: "latest" }), receivedAt)).toEqual([]);
    expect(readSessionItem("session", update({}, { release: "a/b" }), receivedAt)).toEqual([]);
    expect(readSessionItem("session", update({ sid: undefined }), receivedAt)).toEqual([]);
    expect(readSessionItem("session", update({ started: "2026-11-01T00:00:00Z" }), receivedAt)).toEqual([]);
    expect(readSessionItem("session", update({ started: "not a time" }), receivedAt)).toEqual([]);
    expect(readSessionItem("session", "not an object", receivedAt)).toEqual([]);
  });

  it('keeps the environment as sent: none is "", trimmed, capped like the events\' environment', () => {
    expect(readSessionItem("session", update({}, { release: "r1" }), receivedAt)[0]).toMatchObject({ environment: "" });
    expect(readSessionItem("session", update({}, { release: "r1", environment: "  Staging " }), receivedAt)[0]).toMatchObject({ environment: "Staging" });
    const long = readSessionItem("session", update({}, { release: "r1", environment: "語".repeat(500) }), receivedAt)[0];
    expect(long.environment.length).toBe(64);
    expect(Buffer.byteLength(long.environment)).toBeLessThanOrEqual(1024);
  });

  it("uses the receive time for a start in the future (the client's clock)", () => {
    expect(readSessionItem("session", update({ started: "2027-01-01T00:00:00Z" }), receivedAt)[0]).toMatchObject({ hour: "2026-11-28T13:00:00.000Z" });
  });

  it("reads aggregates: one per bucket, counts as sent, empty buckets and bad counts skipped", () => {
    const items = readSessionItem(
      "sessions",
      {
        aggregates: [
          { started: "2026-11-28T12:59:00Z", exited: 5, errored: 1, crashed: 2 },
          { started: "2026-11-28T13:01:00Z", did: "u1", exited: 0, abnormal: 1, crashed: -4 },
          { started: "2026-11-28T13:02:00Z", exited: 0 },
        ],
        attrs: { release: "api@2", environment: "prod" },
      },
      receivedAt,
    );
    expect(items).toEqual([
      {
        kind: "aggregate",
        release: "api@2",
        environment: "prod",
        hour: "2026-11-28T12:00:00.000Z",
        day: "2026-11-28",
        exited: 5,
        errored: 1,
        abnormal: 0,
        crashed: 2,
        userKey: null,
      },
      {
        kind: "aggregate",
        release: "api@2",
        environment: "prod",
        hour: "2026-11-28T13:00:00.000Z",
        day: "2026-11-28",
        exited: 0,
        errored: 0,
        abnormal: 1,
        crashed: 0,
        userKey: "u1",
      },
    ]);
  });
});
