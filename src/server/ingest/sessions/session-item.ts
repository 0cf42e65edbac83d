import { isReleaseVersion } from "../../releases/release-version";
import { isPlainObject, readString } from "../normalize/value-coercion";
import { storableText } from "../normalize/storable-text";
import { indexedText } from "../store/indexed-text";
import { hourOf } from "../store/pending-occurrence";

/** A session's worst outcome, in the order one replaces another: crashed > abnormal > errored > none. */
export const SessionOutcome = { none: 0, errored: 1, abnormal: 2, crashed: 3 } as const;
export type SessionOutcome = (typeof SessionOutcome)[keyof typeof SessionOutcome];

/** Where a session's counts go: release health rows are keyed by these (texts already storable and capped). */
export interface SessionKey {
  release: string;
  /** As the SDK sent it; "" when it sent none. */
  environment: string;
  /** The UTC hour the session started in (ISO). */
  hour: string;
  /** The UTC day it started on (YYYY-MM-DD), for distinct users. */
  day: string;
}

/** One update of one session (a `session` item: @sentry/browser, sentry-python's per-process sessions). */
export interface SessionUpdate extends SessionKey {
  kind: "session";
  sessionId: string;
  /** The first update of the session (`init: true`): it counts as started. */
  init: boolean;
  outcome: SessionOutcome;
  /** The SDK's `did` (the user), or null. */
  userKey: string | null;
}

/** Sessions counted by the SDK (a `sessions` item's aggregate: @sentry/node's request sessions). */
export interface SessionAggregate extends SessionKey {
  kind: "aggregate";
  /** Healthy sessions that ended: started = exited + errored + abnormal + crashed. */
  exited: number;
  errored: number;
  abnormal: number;
  crashed: number;
  userKey: string | null;
}

export type SessionItem = SessionUpdate | SessionAggregate;

/** Relay drops sessions that started longer ago than this (`max_session_secs_in_past`, 5 days). */
const MAX_SESSION_AGE_MS = 5 * 24 * 3_600_000;
/** A start this far ahead of the receive time is the client's clock: the receive time is used. */
const MAX_FUTURE_MS = 60_000;
/** Aggregates in one `sessions` item at most (an SDK sends one per minute it buffered). */
const MAX_AGGREGATES = 100;
/** One aggregate's count at most: more is not a real SDK's minute. */
const MAX_COUNT = 1_000_000;

/**
 * What a `session` or `sessions` item counts (Sentry's release-health protocol), or nothing when
 * it cannot be counted: no valid release (Sentry requires one), no session id, no usable start.
 * Never throws: a bad session item never fails its envelope.
 */
export function readSessionItem(type: string, json: unknown, receivedAt: Date): SessionItem[] {
  if (!isPlainObject(json)) return [];
  const attrs = isPlainObject(json.attrs) ? json.attrs : {};
  const release = readRelease(attrs.release);
  if (release === null) return [];
  const environment = readEnvironment(attrs.environment);
  if (type === "session") {
    const update = readUpdate(json, release, environment, receivedAt);
    return update ? [update] : [];
  }
  if (type !== "sessions" || !Array.isArray(json.aggregates)) return [];
  const aggregates: SessionItem[] = [];
  for (const entry of json.aggregates.slice(0, MAX_AGGREGATES)) {
    if (!isPlainObject(entry)) continue;
    const time = startTime(entry.started, receivedAt);
    if (!time) continue;
    const aggregate: SessionAggregate = {
      kind: "aggregate",
      release,
      environment,
      ...time,
      exited: count(entry.exited),
      errored: count(entry.errored),
      abnormal: count(entry.abnormal),
      crashed: count(entry.crashed),
      userKey: readUserKey(entry.did),
    };
    if (aggregate.exited + aggregate.errored + aggregate.abnormal + aggregate.crashed > 0) aggregates.push(aggregate);
  }
  return aggregates;
}

function readUpdate(json: Record<string, unknown>, release: string, environment: string, receivedAt: Date): SessionUpdate | null {
  const sessionId = readString(json.sid, 64);
  const time = startTime(json.started, receivedAt);
  if (sessionId === null || !time) return null;
  return {
    kind: "session",
    release,
    environment,
    ...time,
    sessionId: storableText(sessionId),
    init: json.init === true,
    outcome: outcomeOf(json.status, json.errors),
    userKey: readUserKey(json.did),
  };
}

/**
 * The status an update reports, with `errors` making a healthy one errored. `unhandled` is what
 * @sentry/browser (v10+) reports for an unhandled error: the page did not crash, so it counts as
 * errored, not crashed (Node and the mobile SDKs say `crashed` when the process died).
 */
function outcomeOf(status: unknown, errors: unknown): SessionOutcome {
  if (status === "crashed") return SessionOutcome.crashed;
  if (status === "abnormal") return SessionOutcome.abnormal;
  if (status === "errored" || status === "unhandled") return SessionOutcome.errored;
  return typeof errors === "number" && errors > 0 ? SessionOutcome.errored : SessionOutcome.none;
}

/** Sentry's release rule (releases/release-version.ts); a session without a valid release is not counted. */
function readRelease(value: unknown): string | null {
  if (typeof value !== "string" || !isReleaseVersion(value)) return null;
  return storableText(value);
}

/** As the event normaliser reads an environment (trimmed, 64 characters), "" for none, capped for the index. */
function readEnvironment(value: unknown): string {
  const environment = readString(value, 64)?.trim() ?? "";
  return indexedText(storableText(environment));
}

function readUserKey(value: unknown): string | null {
  const did = readString(value, 256);
  return did === null ? null : indexedText(storableText(did));
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.min(Math.floor(value), MAX_COUNT) : 0;
}

/** The session's start as its hour and day; null when unreadable or older than Relay keeps. */
function startTime(value: unknown, receivedAt: Date): Pick<SessionKey, "hour" | "day"> | null {
  const parsed = typeof value === "string" ? Date.parse(value) : typeof value === "number" ? value * 1000 : Number.NaN;
  if (!Number.isFinite(parsed) || parsed < receivedAt.getTime() - MAX_SESSION_AGE_MS) return null;
  const started = parsed > receivedAt.getTime() + MAX_FUTURE_MS ? receivedAt : new Date(parsed);
  return { hour: hourOf(started).toISOString(), day: started.toISOString().slice(0, 10) };
}
