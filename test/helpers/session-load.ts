/**
 * A bounded release-health load for the chaos tests: envelopes of `session` updates and `sessions`
 * aggregates as the SDKs send them, each sent once (SDKs drop what is answered 503), with what
 * was sent and what was answered 2xx counted by Sentry's rules, so a test can compare the stored
 * counts with both.
 */
export interface SessionTotals {
  sessions: number;
  crashed: number;
  /** Sessions that errored, crashed or ended abnormally (a session in one bucket at most). */
  unhealthy: number;
}

export interface SessionLoadResult {
  acked: SessionTotals;
  sent: SessionTotals;
  statuses: Map<number, number>;
  networkErrors: number;
}

type Outcome = 0 | 1 | 2 | 3;

export const SESSION_LOAD_RELEASE = "chaos@1.0.0";

function envelopeOf(type: "session" | "sessions", payload: unknown) {
  return `${JSON.stringify({ sent_at: new Date().toISOString() })}\n${JSON.stringify({ type })}\n${JSON.stringify(payload)}\n`;
}

const attrs = { release: SESSION_LOAD_RELEASE, environment: "production" };
const update = (sid: string, init: boolean, status: string, errors: number) =>
  envelopeOf("session", { sid, init, started: new Date().toISOString(), status, errors, did: `user-${sid.slice(0, 2)}`, attrs });

export function runSessionLoad(target: () => string, options: { connections: number; durationMs: number }): Promise<SessionLoadResult> {
  const statuses = new Map<number, number>();
  let networkErrors = 0;
  // Per session: whether its first update went out / was acknowledged, and its worst outcome either way.
  const sessions = new Map<string, { initSent: boolean; initAcked: boolean; worstSent: Outcome; worstAcked: Outcome }>();
  const aggregates = { sent: { sessions: 0, crashed: 0, unhealthy: 0 }, acked: { sessions: 0, crashed: 0, unhealthy: 0 } };
  const deadline = Date.now() + options.durationMs;
  let counter = 0;

  const send = async (body: string): Promise<boolean> => {
    try {
      const response = await fetch(target(), { method: "POST", body, signal: AbortSignal.timeout(15_000) });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 200 && response.status < 300) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } catch {
      networkErrors += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  };
  const sendUpdate = async (sid: string, init: boolean, outcome: Outcome) => {
    const state = sessions.get(sid)!;
    const [status, errors] = outcome === 3 ? ["crashed", 1] : outcome === 2 ? ["abnormal", 0] : outcome === 1 ? ["ok", 1] : ["exited", 0];
    state.initSent ||= init;
    state.worstSent = Math.max(state.worstSent, outcome) as Outcome;
    if (!(await send(update(sid, init, status as string, errors as number)))) return;
    state.initAcked ||= init;
    state.worstAcked = Math.max(state.worstAcked, outcome) as Outcome;
  };

  const worker = async () => {
    while (Date.now() < deadline) {
      const n = counter++;
      if (n % 5 === 4) {
        const counts = { exited: 3, errored: 1, abnormal: 0, crashed: 1 };
        const body = envelopeOf("sessions", { aggregates: [{ started: new Date().toISOString(), ...counts }], attrs });
        const totals = { sessions: 5, crashed: 1, unhealthy: 2 };
        for (const key of ["sessions", "crashed", "unhealthy"] as const) aggregates.sent[key] += totals[key];
        if (await send(body)) for (const key of ["sessions", "crashed", "unhealthy"] as const) aggregates.acked[key] += totals[key];
        continue;
      }
      const sid = crypto.randomUUID().replaceAll("-", "");
      sessions.set(sid, { initSent: false, initAcked: false, worstSent: 0, worstAcked: 0 });
      // Healthy, errored, crashed, or errored first and crashing in a later request (moved between buckets).
      const plan = n % 5;
      await sendUpdate(sid, true, plan === 0 ? 0 : plan === 2 ? 3 : 1);
      if (plan === 3) await sendUpdate(sid, false, 3);
    }
  };

  return Promise.all(Array.from({ length: options.connections }, worker)).then(() => {
    const totals = (which: "Sent" | "Acked"): SessionTotals => {
      const result = { ...aggregates[which === "Sent" ? "sent" : "acked"] };
      for (const state of sessions.values()) {
        if (which === "Sent" ? state.initSent : state.initAcked) result.sessions += 1;
        const worst = which === "Sent" ? state.worstSent : state.worstAcked;
        if (worst === 3) result.crashed += 1;
        if (worst > 0) result.unhealthy += 1;
      }
      return result;
    };
    return { acked: totals("Acked"), sent: totals("Sent"), statuses, networkErrors };
  });
}
