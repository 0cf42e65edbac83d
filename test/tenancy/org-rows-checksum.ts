import { sql } from "drizzle-orm";
import { executeRows } from "../../src/server/db/execute";
import type { TestServer } from "../helpers/test-server";

/**
 * An organization's rows of `tables`, hashed table by table, to prove a run of foreign calls changed
 * none of them. `organizations` is matched on its id, every other table on `organization_id`.
 */
export async function orgRowsChecksum(server: TestServer, orgId: string, tables: readonly string[]): Promise<string> {
  const sums: string[] = [];
  for (const table of tables) {
    const column = table === "organizations" ? "id" : "organization_id";
    const [row] = await executeRows<{ sum: string | null }>(
      server.database.db,
      sql`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from ${sql.identifier(table)} t where ${sql.identifier(column)} = ${orgId}`,
    );
    sums.push(`${table}:${row.sum}`);
  }
  return sums.join("\n");
}
