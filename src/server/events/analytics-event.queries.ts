import { sql } from "drizzle-orm";
import type { StatementRunner } from "../ingest/store/batch-commit";
import type { RowKind } from "../ingest/store/queued-row";

/**
 * Analytics events as the ingest batch writer commits them: each row is a JSON object text
 * (see analyticsEventRow), and a batch's rows travel as ONE json parameter, so the statement text
 * never changes with the batch size and is prepared once.
 */
export const analyticsEventRows: RowKind<string> = {
  insert: (db: StatementRunner, rows: string[]) =>
    db.executePrepared(
      sql`insert into events (organization_id, project_id, name, properties, created_at)
          select organization_id, project_id, name, properties, created_at
          from json_to_recordset(${`[${rows.join(",")}]`}::json) as r(organization_id text, project_id uuid, name text, properties jsonb, created_at timestamptz)`,
    ),
};
