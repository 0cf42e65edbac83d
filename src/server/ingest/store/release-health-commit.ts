import { sql } from "drizzle-orm";
import { rowsParam, type StatementRunner } from "./batch-commit";
import type { RowKind } from "./queued-row";
import { sumReleaseHealth, type ReleaseHealthRow } from "../sessions/release-health-sums";

/**
 * Session items ride in the batch writer's queue beside the events (queued-row.ts): they are
 * committed in the batch whose commit answers their request, so a 2xx means they are counted, and
 * an outage answers 503 as for events. Each batch's items are summed in memory and written by ONE
 * statement: atomic, so a batch sent again after a failure (batch-isolation.ts) was counted never
 * or once, not in part.
 */
export const releaseHealthRows: RowKind<ReleaseHealthRow> = {
  insert: (db, rows) => addReleaseHealth(db, rows),
};

/**
 * Adds a batch's summed sessions to release_health_hourly and release_health_users. Individual
 * sessions that errored, crashed or ended abnormally go through release_health_sessions first: its
 * upsert keeps each session's worst outcome and returns, for each session whose outcome got worse,
 * the one it replaced, so the hourly counts move the session from that bucket to the new one. The
 * upsert's conflict arbiter serialises concurrent batches on a session's row (under READ COMMITTED
 * the later one sees the earlier one's outcome), so a session is in at most one bucket however its
 * updates are split across batches. Rows of a project deleted since its key was cached are skipped.
 */
export async function addReleaseHealth(db: StatementRunner, rows: ReleaseHealthRow[]) {
  const sums = sumReleaseHealth(rows);
  await db.executePrepared(
    sql`with
      outcome_input as (
        select * from json_to_recordset(${rowsParam(sums.outcomes)}) as o(
          organization_id text, project_id uuid, session_id text, release text, environment text, hour timestamptz, outcome smallint)
      ),
      moved as (
        insert into release_health_sessions as s (organization_id, project_id, session_id, release, environment, hour, outcome)
        select o.organization_id, o.project_id, o.session_id, o.release, o.environment, o.hour, o.outcome
        from outcome_input o
        where exists (select 1 from projects p where p.id = o.project_id)
        order by o.project_id, o.session_id
        on conflict (project_id, session_id) do update set outcome = excluded.outcome, previous_outcome = s.outcome
        where s.outcome < excluded.outcome
        returning s.organization_id, s.project_id, s.release, s.environment, s.hour, s.outcome, s.previous_outcome
      ),
      deltas as (
        select h.organization_id, h.project_id, h.release, h.environment, h.hour, h.sessions, h.errored, h.abnormal, h.crashed
        from json_to_recordset(${rowsParam(sums.hourly)}) as h(
          organization_id text, project_id uuid, release text, environment text, hour timestamptz,
          sessions bigint, errored bigint, abnormal bigint, crashed bigint)
        where exists (select 1 from projects p where p.id = h.project_id)
        union all
        select organization_id, project_id, release, environment, hour, 0,
               (outcome = 1)::int - (previous_outcome = 1)::int,
               (outcome = 2)::int - (previous_outcome = 2)::int,
               (outcome = 3)::int - (previous_outcome = 3)::int
        from moved
      ),
      hourly as (
        insert into release_health_hourly as r (organization_id, project_id, release, environment, hour, sessions, errored, abnormal, crashed)
        select organization_id, project_id, release, environment, hour, sum(sessions), sum(errored), sum(abnormal), sum(crashed)
        from deltas group by 1, 2, 3, 4, 5 order by 2, 3, 4, 5
        on conflict (project_id, release, environment, hour) do update set
          sessions = r.sessions + excluded.sessions,
          errored = r.errored + excluded.errored,
          abnormal = r.abnormal + excluded.abnormal,
          crashed = r.crashed + excluded.crashed
      ),
      users as (
        insert into release_health_users as u (organization_id, project_id, release, environment, day, user_key, crashed)
        select i.organization_id, i.project_id, i.release, i.environment, i.day, i.user_key, i.crashed
        from json_to_recordset(${rowsParam(sums.users)}) as i(
          organization_id text, project_id uuid, release text, environment text, day date, user_key text, crashed boolean)
        where exists (select 1 from projects p where p.id = i.project_id)
        order by i.project_id, i.release, i.environment, i.day, i.user_key
        -- A user already counted is rewritten only to mark a first crash.
        on conflict (project_id, release, environment, day, user_key) do update set crashed = true
        where excluded.crashed and not u.crashed
      )
    select 1`,
  );
}
