/**
 * Release health computed from the session items an SDK sent (the test's side of the sum): what
 * the product's list and release page must answer for the same sessions.
 */

/** What a session item says, as the SDK sent it. */
export interface SentSession {
  sid: string;
  init: boolean;
  status: string;
  errors: number;
  did?: string;
}

type Outcome = "healthy" | "errored" | "crashed" | "abnormal";

/** A session's worst outcome over its updates, by Sentry's rules (the browser's `unhandled` is errored). */
function worstOutcome(updates: SentSession[]): Outcome {
  if (updates.some((session) => session.status === "crashed")) return "crashed";
  if (updates.some((session) => session.status === "abnormal")) return "abnormal";
  return updates.some((session) => session.errors > 0 || session.status === "errored" || session.status === "unhandled") ? "errored" : "healthy";
}

/** Sessions started (init), sessions by worst outcome, and distinct users (`did`) with those of them that crashed. */
export function countSentSessions(sent: SentSession[]) {
  const sids = new Set(sent.map((session) => session.sid));
  const outcomes = [...sids].map((sid) => worstOutcome(sent.filter((session) => session.sid === sid)));
  const users = new Set(sent.flatMap((session) => (session.did ? [session.did] : [])));
  const crashedUsers = new Set(sent.flatMap((session) => (session.did && session.status === "crashed" ? [session.did] : [])));
  return {
    sessions: sent.filter((session) => session.init).length,
    errored: outcomes.filter((outcome) => outcome === "errored").length,
    crashed: outcomes.filter((outcome) => outcome === "crashed").length,
    abnormal: outcomes.filter((outcome) => outcome === "abnormal").length,
    users: users.size,
    crashedUsers: crashedUsers.size,
  };
}

/** 100 × (1 − bad / total) as a percentage with two decimals, as the product answers it; null without a total. */
export function crashFreePercent(bad: number, total: number): number | null {
  return total === 0 ? null : Math.round(10_000 * (1 - bad / total)) / 100;
}
