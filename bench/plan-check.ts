import { sql } from "drizzle-orm";
import type { Db } from "../src/server/db/client";
import { executeRows } from "../src/server/db/execute";
import type { BenchDatabase, PlanNode } from "./bench-database";

const TENANT_TABLES = ["issues", "occurrences", "issue_daily_counts", "issue_hourly_counts", "issue_tag_counts", "issue_activities", "events", "projects"];
/** A sequential scan of a table this small is the planner being right, not a missing index. */
export const SMALL_TABLE_ROWS = 10_000;

/** The tenant tables that hold more than SMALL_TABLE_ROWS rows (by the planner's statistics, so after `analyze`). */
export async function largeTenantTables(db: Db): Promise<Set<string>> {
  const sizes = await executeRows<{ relname: string; reltuples: number }>(
    db,
    sql`select relname, reltuples::float8 as reltuples from pg_class where relkind = 'r'`,
  );
  return new Set(sizes.filter((t) => TENANT_TABLES.includes(t.relname) && Number(t.reltuples) > SMALL_TABLE_ROWS).map((t) => t.relname));
}

/**
 * Runs `run` once on the traced handle and EXPLAINs every statement it sent: the large tenant
 * tables any plan reads with a sequential scan (a missing index, or a query the index cannot serve).
 */
export async function sequentialScans(bench: BenchDatabase, largeTables: Set<string>, label: string, run: (db: Db) => Promise<unknown>): Promise<string[]> {
  bench.captured.length = 0;
  await run(bench.traced);
  if (bench.captured.length === 0) throw new Error(`${label}: the traced run recorded no statement to EXPLAIN`);
  const seqScans = new Set<string>();
  for (const query of [...bench.captured]) {
    const walk = (node: PlanNode) => {
      if (node["Node Type"] === "Seq Scan" && largeTables.has(String(node["Relation Name"]))) seqScans.add(String(node["Relation Name"]));
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(await bench.explain(query));
  }
  return [...seqScans];
}
