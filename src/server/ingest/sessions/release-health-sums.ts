import { SessionOutcome, type SessionItem } from "./session-item";

/** A session item of one project, as queued in the batch writer. */
export type ReleaseHealthRow = SessionItem & { organizationId: string; projectId: string };

/** Counts to add to one release_health_hourly row. */
export interface HourlySum {
  organization_id: string;
  project_id: string;
  release: string;
  environment: string;
  hour: string;
  sessions: number;
  errored: number;
  abnormal: number;
  crashed: number;
}

/** The worst outcome a batch reports for one session that errored, crashed or ended abnormally. */
export interface SessionOutcomeRow {
  organization_id: string;
  project_id: string;
  session_id: string;
  release: string;
  environment: string;
  hour: string;
  outcome: SessionOutcome;
}

/** One user of a release on a day, and whether one of their sessions crashed. */
export interface UserRow {
  organization_id: string;
  project_id: string;
  release: string;
  environment: string;
  day: string;
  user_key: string;
  crashed: boolean;
}

/** A batch's session items summed into the rows of one statement (release-health-commit.ts), each list in key order. */
export interface ReleaseHealthSums {
  hourly: HourlySum[];
  /** Individual sessions' outcomes: the statement decides against earlier batches which bucket each moves. */
  outcomes: SessionOutcomeRow[];
  users: UserRow[];
}

const SEP = "\u0000";

/**
 * Sums a batch's session items in memory, so that a batch costs one row per key whatever the number
 * of updates: started sessions and SDK aggregates per hour; per session, the worst outcome of its
 * updates in this batch (an individual session's errored/crashed counts are moved by the statement,
 * which knows what earlier batches counted); per user, crashed if any of their sessions crashed.
 * A user is noted on a session's first update and on a crash: the updates between add nothing.
 */
export function sumReleaseHealth(rows: readonly ReleaseHealthRow[]): ReleaseHealthSums {
  const hourly = new Map<string, HourlySum>();
  const outcomes = new Map<string, SessionOutcomeRow>();
  const users = new Map<string, UserRow>();
  const hourOf = (row: ReleaseHealthRow) => {
    const key = [row.projectId, row.release, row.environment, row.hour].join(SEP);
    let sum = hourly.get(key);
    if (!sum) {
      sum = {
        organization_id: row.organizationId,
        project_id: row.projectId,
        release: row.release,
        environment: row.environment,
        hour: row.hour,
        sessions: 0,
        errored: 0,
        abnormal: 0,
        crashed: 0,
      };
      hourly.set(key, sum);
    }
    return sum;
  };
  const noteUser = (row: ReleaseHealthRow, crashed: boolean) => {
    if (row.userKey === null) return;
    const key = [row.projectId, row.release, row.environment, row.day, row.userKey].join(SEP);
    const user = users.get(key);
    if (user) user.crashed ||= crashed;
    else
      users.set(key, {
        organization_id: row.organizationId,
        project_id: row.projectId,
        release: row.release,
        environment: row.environment,
        day: row.day,
        user_key: row.userKey,
        crashed,
      });
  };
  for (const row of rows) {
    if (row.kind === "aggregate") {
      const sum = hourOf(row);
      sum.sessions += row.exited + row.errored + row.abnormal + row.crashed;
      sum.errored += row.errored;
      sum.abnormal += row.abnormal;
      sum.crashed += row.crashed;
      noteUser(row, row.crashed > 0);
      continue;
    }
    if (row.init) hourOf(row).sessions += 1;
    if (row.init || row.outcome === SessionOutcome.crashed) noteUser(row, row.outcome === SessionOutcome.crashed);
    if (row.outcome === SessionOutcome.none) continue;
    const key = row.projectId + SEP + row.sessionId;
    const known = outcomes.get(key);
    if (known) known.outcome = Math.max(known.outcome, row.outcome) as SessionOutcome;
    else
      outcomes.set(key, {
        organization_id: row.organizationId,
        project_id: row.projectId,
        session_id: row.sessionId,
        release: row.release,
        environment: row.environment,
        hour: row.hour,
        outcome: row.outcome,
      });
  }
  return { hourly: sortedBy(hourly), outcomes: sortedBy(outcomes), users: sortedBy(users) };
}

/** Rows in key order, so concurrent batches lock them alike (no deadlock). */
function sortedBy<T>(rows: Map<string, T>): T[] {
  return [...rows.keys()].sort().map((key) => rows.get(key) as T);
}
