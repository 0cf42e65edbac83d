import { describe, expect, it } from "vitest";
import { loadCaptures } from "../../../../test/helpers/sdk-fixtures";
import { parseEnvelope } from "../sentry/envelope.parser";
import { readSessionItem, SessionOutcome, type SessionItem } from "./session-item";

/** The session items of the real SDK captures (@sentry/node 11.12.0, sentry-python 1.9.10), as ingest reads them. */
function sessionItemsOf(file: string): SessionItem[] {
  const capture = [...loadCaptures("node"), ...loadCaptures("python")].find((c) => c.file === file);
  if (!capture) throw new Error(`no capture ${file}`);
  const parsed = parseEnvelope(Buffer.from(capture.body));
  if (!parsed.ok) throw new Error(parsed.error.message);
  // Received when it was sent: the captures are older than the five days a session is kept for.
  const items = parsed.envelope.items.filter((item) => item.type === "session" || item.type === "sessions");
  expect(items.length).toBeGreaterThan(0);
  return items.flatMap((item) => {
    const started =
      (item.json as { started?: string; aggregates?: { started: string }[] }).started ??
      (item.json as { aggregates: { started: string }[] }).aggregates[0].started;
    return readSessionItem(item.type, item.json, new Date(new Date(started).getTime() + 1000));
  });
}

describe("release health from the real SDK captures", () => {
  it("@sentry/node: a first update with a handled error is a started, errored session of its user", () => {
    expect(sessionItemsOf("001-handled-session.json")).toEqual([
      expect.objectContaining({
        kind: "session",
        release: "shop@1.2.3",
        environment: "production",
        init: true,
        outcome: SessionOutcome.errored,
        userKey: "u-1001",
      }),
    ]);
  });

  it("@sentry/node: an unhandled error crashes the session; a clean exit leaves it healthy", () => {
    expect(sessionItemsOf("023-unhandled-session.json")).toEqual([expect.objectContaining({ init: true, outcome: SessionOutcome.crashed, userKey: null })]);
    expect(sessionItemsOf("021-dropped-session.json")).toEqual([expect.objectContaining({ init: true, outcome: SessionOutcome.none })]);
  });

  it("sentry-python: a `sessions` aggregate (microsecond times) counts as sent", () => {
    expect(sessionItemsOf("013-wsgi-sessions.json")).toEqual([
      {
        kind: "aggregate",
        release: "shop@1.2.3",
        environment: "production",
        hour: "2026-11-21T14:00:00.000Z",
        day: "2026-11-21",
        exited: 0,
        errored: 0,
        abnormal: 0,
        crashed: 1,
        userKey: null,
      },
    ]);
  });
});
