import type { Db } from "../db/client";
import { catalogTables, sweptTableOf, type CatalogTable, type SweptTable } from "./deletion-tables";

/**
 * Every table with an `organization_id` column (better-auth's included) but `organizations` itself
 * and the `deletions` audit, read from the catalog like `sweptTables`, ordered so that a table goes
 * before every table its foreign keys point at: a row is deleted before the row it needs, whether
 * the key cascades or not. What remains after the projects went is small (members, teams, tokens,
 * settings, releases…), still removed in batches.
 */
export async function organizationTables(db: Db): Promise<SweptTable[]> {
  const rows = await catalogTables(db, ["organization_id"], ["deletions", "organizations"]);
  const referencedBy = (name: string, among: CatalogTable[]) => among.some((row) => row.name !== name && (row.refs ?? []).includes(name));
  const ordered: CatalogTable[] = [];
  let left = rows;
  while (left.length > 0) {
    // Tables nothing left points at go first; a cycle (none today) falls back to name order.
    const free = left.filter((row) => !referencedBy(row.name, left));
    const next = free.length > 0 ? free : [left[0]];
    ordered.push(...next);
    left = left.filter((row) => !next.includes(row));
  }
  return ordered.map(sweptTableOf);
}
