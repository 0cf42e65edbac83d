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

/** A table as the catalog describes it: its scope columns, primary key and the tables its foreign keys point at. */
export interface CatalogTable {
  name: string;
  columns: string[];
  key: string[] | null;
  refs: string[] | null;
}

/**
 * The schema's tables having one of `anyOf` columns, but `except`, from the catalog: read at the
 * start of each run rather than listed by hand, so a table added later is swept without anyone
 * remembering these files (the leftover tests check the same catalog). Partitions are skipped
 * (their parent is swept).
 */
export async function catalogTables(db: Db, anyOf: string[], except: string[]): Promise<CatalogTable[]> {
  const list = (values: string[]) =>
    sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
  return executeRows<CatalogTable>(
    db,
    sql`select c.relname as name,
               array(select a.attname::text from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                       and a.attname in ('organization_id', 'project_id', 'issue_id')) as columns,
               (select array_agg(a.attname::text order by k.ord)
                  from pg_index i cross join unnest(i.indkey) with ordinality as k(attnum, ord)
                  join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
                 where i.indrelid = c.oid and i.indisprimary) as key,
               (select array_agg(distinct r.relname::text) from pg_constraint f join pg_class r on r.oid = f.confrelid
                 where f.conrelid = c.oid and f.contype = 'f' and f.confrelid <> c.oid) as refs
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
           and c.relname not in (${list(except)})
           and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attname in (${list(anyOf)}))
         order by c.relname`,
  );
}

export const sweptTableOf = (row: CatalogTable): SweptTable => ({
  name: row.name,
  hasOrganizationId: row.columns.includes("organization_id"),
  hasProjectId: row.columns.includes("project_id"),
  hasIssueId: row.columns.includes("issue_id"),
  key: row.key ?? [],
});

/** Every table with a `project_id` or `issue_id` column; `deletions` holds audit rows, never swept. */
export async function sweptTables(db: Db): Promise<SweptTable[]> {
  return (await catalogTables(db, ["project_id", "issue_id"], ["deletions"])).map(sweptTableOf);
}
