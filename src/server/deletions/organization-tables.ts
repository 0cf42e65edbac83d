import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import type { SweptTable } from "./deletion-tables";

/**
 * Every table with an `organization_id` column (better-auth's included) but `organizations` itself
 * and the `deletions` audit, read from the catalog like `sweptTables`, ordered so that a table goes
 * before every table its foreign keys point at: a row is deleted before the row it needs, whether
 * the key cascades or not. What remains after the projects went is small (members, teams, tokens,
 * settings, releases…), still removed in batches.
 */
export async function organizationTables(db: Db): Promise<SweptTable[]> {
  const rows = await executeRows<{ name: string; columns: string[]; key: string[] | null; refs: string[] | null }>(
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
           and c.relname not in ('deletions', 'organizations')
           and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attname = 'organization_id')
         order by c.relname`,
  );
  const referencedBy = (name: string, among: typeof rows) => among.some((row) => row.name !== name && (row.refs ?? []).includes(name));
  const ordered: typeof rows = [];
  let left = rows;
  while (left.length > 0) {
    // Tables nothing left points at go first; a cycle (none today) falls back to name order.
    const free = left.filter((row) => !referencedBy(row.name, left));
    const next = free.length > 0 ? free : [left[0]];
    ordered.push(...next);
    left = left.filter((row) => !next.includes(row));
  }
  return ordered.map((row) => ({
    name: row.name,
    hasOrganizationId: true,
    hasProjectId: row.columns.includes("project_id"),
    hasIssueId: row.columns.includes("issue_id"),
    key: row.key ?? [],
  }));
}
