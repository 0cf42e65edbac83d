import type { LoadRequest } from "./load-generator";

/** Release-health counts as release_health_hourly sums them. */
export interface HealthTotals {
  sessions: number;
  errored: number;
  crashed: number;
  abnormal: number;
}

type Outcome = 0 | 1 | 2 | 3;

/** What one session envelope says: an update of one session, or an SDK's aggregate. */
type Sent = { sid: string; init: boolean; outcome: Outcome } | { aggregate: HealthTotals };

const RELEASES = ["bench@1.0.0", "bench@1.1.0", "bench@2.0.0"];

/**
 * `--sessions F`: a fraction F of the requests are session envelopes instead of events, half
 * `session` updates as @sentry/browser sends them (a first update, and for some sessions a later
 * one: exited, or crashed after an error — which moves the session between buckets) and half
 * `sessions` aggregates as @sentry/node sends them. Every request has an id (`s…` for sessions), so
 * what the acknowledged session envelopes should have counted is known exactly afterwards.
 */
export function withSessions(nextEvent: () => LoadRequest, fraction: number) {
  const sent = new Map<string, Sent>();
  const followUps: { sid: string; outcome: Outcome; attrs: Record<string, string>; did: string }[] = [];
  let counter = 0;

  const envelope = (id: string, type: "session" | "sessions", payload: unknown): LoadRequest => {
    const item = JSON.stringify(payload);
    return { eventId: id, body: `{"sent_at":"${new Date().toISOString()}"}\n{"type":"${type}","length":${Buffer.byteLength(item)}}\n${item}\n` };
  };
  const update = (id: string, sid: string, init: boolean, outcome: Outcome, attrs: Record<string, string>, did: string) => {
    sent.set(id, { sid, init, outcome });
    const status = outcome === 3 ? "crashed" : outcome === 2 ? "abnormal" : init ? "ok" : "exited";
    return envelope(id, "session", { sid, init, started: new Date().toISOString(), status, errors: outcome === 1 ? 1 : 0, did, attrs });
  };

  const next = (): LoadRequest => {
    if (Math.random() >= fraction) return nextEvent();
    const n = counter++;
    const id = `s${n}`;
    const attrs = { release: RELEASES[n % RELEASES.length], environment: "production" };
    if (n % 2 === 1) {
      const aggregate = { sessions: 12, errored: 2, crashed: 1, abnormal: 0 };
      sent.set(id, { aggregate });
      return envelope(id, "sessions", { aggregates: [{ started: new Date().toISOString(), exited: 9, errored: 2, crashed: 1 }], attrs });
    }
    const later = followUps.shift();
    if (later && n % 4 === 0) return update(id, later.sid, false, later.outcome, later.attrs, later.did);
    const sid = crypto.randomUUID();
    const did = `user-${n % 500}`;
    // Healthy, errored, or errored and crashing later; each healthy one exits later.
    const plan = (n >> 1) % 4;
    const outcome: Outcome = plan === 1 || plan === 3 ? 1 : 0;
    followUps.push({ sid, outcome: plan === 3 ? 3 : 0, attrs, did });
    return update(id, sid, true, outcome, attrs, did);
  };

  /** The acknowledged events' ids, and what the acknowledged session envelopes should have counted. */
  const split = (acked: string[]) => {
    const events: string[] = [];
    const worst = new Map<string, Outcome>();
    const expected: HealthTotals = { sessions: 0, errored: 0, crashed: 0, abnormal: 0 };
    for (const id of acked) {
      const item = sent.get(id);
      if (!item) {
        events.push(id);
        continue;
      }
      if ("aggregate" in item) {
        for (const key of ["sessions", "errored", "crashed", "abnormal"] as const) expected[key] += item.aggregate[key];
        continue;
      }
      if (item.init) expected.sessions += 1;
      worst.set(item.sid, Math.max(worst.get(item.sid) ?? 0, item.outcome) as Outcome);
    }
    for (const outcome of worst.values()) {
      if (outcome === 1) expected.errored += 1;
      if (outcome === 2) expected.abnormal += 1;
      if (outcome === 3) expected.crashed += 1;
    }
    return { events, sessionEnvelopes: acked.length - events.length, expected };
  };

  return { next, split };
}
