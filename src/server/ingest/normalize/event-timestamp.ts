import { readTimestamp } from "./value-coercion";

/** Relay's window: events older than this are stored at the receive time (`past_timestamp`). */
export const MAX_EVENT_AGE_MS = 30 * 24 * 3_600_000;
/** Clock skew tolerated before a timestamp from the future is replaced by the receive time. */
export const MAX_FUTURE_SKEW_MS = 60_000;
/**
 * Relay corrects clock drift only past this much (55 minutes): smaller differences are network
 * and queueing delay, not a wrong clock, and correcting them would reorder nearby events.
 */
export const MIN_CLOCK_DRIFT_MS = 55 * 60_000;

export type TimestampAdjustment = "missing" | "clock_drift" | "past_timestamp" | "future_timestamp";

export interface EventTime {
  timestamp: Date;
  /** The SDK's own timestamp (ISO), when the stored one is not it. */
  original: string | null;
  adjustment: TimestampAdjustment | null;
}

/**
 * The stored time of an SDK event, as Relay normalises it: first correct the device's clock
 * drift, measured by the envelope's `sent_at` against the receive time; then replace a time
 * outside [receivedAt − 30 days, receivedAt + 60 s] by the receive time. The SDK's original is
 * kept so the detail can show it. Everything stays in range, so rollups never land on 1970.
 */
export function readEventTime(value: unknown, receivedAt: Date, sentAt: unknown): EventTime {
  const sent = readTimestamp(value);
  if (!sent) return { timestamp: receivedAt, original: null, adjustment: "missing" };
  let time = sent.getTime();
  let adjustment: TimestampAdjustment | null = null;

  const sentAtTime = readTimestamp(sentAt)?.getTime();
  if (sentAtTime !== undefined) {
    const drift = receivedAt.getTime() - sentAtTime;
    if (Math.abs(drift) > MIN_CLOCK_DRIFT_MS) {
      time += drift;
      adjustment = "clock_drift";
    }
  }
  if (!Number.isFinite(time) || time < receivedAt.getTime() - MAX_EVENT_AGE_MS) {
    return { timestamp: receivedAt, original: sent.toISOString(), adjustment: "past_timestamp" };
  }
  if (time > receivedAt.getTime() + MAX_FUTURE_SKEW_MS) {
    return { timestamp: receivedAt, original: sent.toISOString(), adjustment: "future_timestamp" };
  }
  return adjustment ? { timestamp: new Date(time), original: sent.toISOString(), adjustment } : { timestamp: sent, original: null, adjustment: null };
}
