import { sql } from "drizzle-orm";
import type { StatementRunner } from "../ingest/store/batch-commit";
import type { RowKind } from "../ingest/store/queued-row";

/** The ingest outcome category of analytics events (exceptions count under `error`). */
export const ANALYTICS_EVENT_CATEGORY = "event";

/**
 * Analytics events as the ingest batch writer commits them: each row is a JSON object text
 * (see analyticsEventRow), and a batch's rows travel as ONE json parameter, so the statement text
 * never changes with the batch size and is prepared once. The same statement counts them as
 * `accepted` ingest outcomes, as the batch statement does for exceptions: the plan's usage
 * (billing.queries.ts monthOutcomes) is read from those counters, and they commit with the events.
 */
export const analyticsEventRows: RowKind<string> = {
  insert: (db: StatementRunner, rows: string[]) =>
    db.executePrepared(
      sql`with r as (
            select organization_id, project_id, name, properties, created_at
            from json_to_recordset(${`[${rows.join(",")}]`}::json) as r(organization_id text, project_id uuid, name text, properties jsonb, created_at timestamptz)
          ),
          stored as (
            insert into events (organization_id, project_id, name, properties, created_at)
            select organization_id, project_id, name, properties, created_at from r
          )
          insert into ingest_outcomes (organization_id, project_id, hour, outcome, reason, category, count)
          select organization_id, project_id, date_trunc('hour', created_at at time zone 'UTC') at time zone 'UTC', 'accepted', '', ${ANALYTICS_EVENT_CATEGORY}, count(*)
          from r group by 1, 2, 3 order by 2, 3
          on conflict (project_id, hour, outcome, reason, category) do update set count = ingest_outcomes.count + excluded.count`,
    ),
};
