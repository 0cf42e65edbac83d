import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";

/** A table a deletion sweeps: which scope columns it has and the key its rows are deleted by. */
export interface SweptTable {
  name: string;
  hasOrganizationId: boolean;
  hasProjectId: boolean;
  hasIssueId: boolean;
  /** The primary key's columns (deleted `where (key) in (select key … limit n)`); empty when it has none. */
  key: string[];
}

/**
 * Every table of the schema with a `project_id` or `issue_id` column, read from the catalog at the
 * start of each run rather than listed by hand: a table added later is swept without anyone
 * remembering this file (the leftover test checks the same catalog). Partitions are skipped (their
 * parent is swept); `deletions` holds audit rows, never swept.
 */
export async function sweptTables(db: Db): Promise<SweptTable[]> {
  const rows = await executeRows<{ name: string; columns: string[]; key: string[] | null }>(
    db,
    sql`select c.relname as name,
               array(select a.attname::text from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                       and a.attname in ('organization_id', 'project_id', 'issue_id')) as columns,
               (select array_agg(a.attname::text order by k.ord)
                  from pg_index i cross join unnest(i.indkey) with ordinality as k(attnum, ord)
                  join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
                 where i.indrelid = c.oid and i.indisprimary) as key
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
           and c.relname <> 'deletions'
           and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attname in ('project_id', 'issue_id'))
         order by c.relname`,
  );
  return rows.map((row) => ({
    name: row.name,
    hasOrganizationId: row.columns.includes("organization_id"),
    hasProjectId: row.columns.includes("project_id"),
    hasIssueId: row.columns.includes("issue_id"),
    key: row.key ?? [],
  }));
}
