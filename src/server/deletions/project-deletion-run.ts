import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import type { Logger } from "../logger";
import { deleteAll } from "./batch-delete";
import { sweptTables, type SweptTable } from "./deletion-tables";
import { addDone } from "./deletion.queries";

export interface DeletionRunDeps {
  db: Db;
  logger: Logger;
  /** Rows per statement: a few thousand keeps each statement short (milliseconds) on any table. */
  batchSize: number;
  /** Told when a project's rows are gone, so this process's ingest key cache forgets it at once. */
  projectDeleted?: (projectId: string) => void;
  /** Called after each batch's progress is committed (a bench prints it; a test stops a run there). */
  onBatch?: () => Promise<void>;
}

const ORDER_FIRST = ["occurrences"];
const ORDER_LAST = ["issues"];

/** Largest first (occurrences), issues after every table that points at them. */
export function sweepOrder(tables: SweptTable[]): SweptTable[] {
  const rank = (table: SweptTable) => (ORDER_FIRST.includes(table.name) ? 0 : ORDER_LAST.includes(table.name) ? 2 : 1);
  return [...tables].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** The progress counts occurrences and issues: what the confirmation named. */
const COUNTED = new Set(["occurrences", "issues"]);

/** After each batch of `table`: its count into the progress (when counted), then the observer. */
export const progressOf = (deps: DeletionRunDeps, deletionId: string, table: SweptTable) => async (count: number) => {
  if (COUNTED.has(table.name)) await addDone(deps.db, deletionId, count);
  await deps.onBatch?.();
};

export async function countRows(db: Db, query: SQL): Promise<number> {
  const [row] = await executeRows<{ count: string | number }>(db, query);
  return Number(row?.count ?? 0);
}

/**
 * Every row of one project, then the project: a project's deletion, and an organization's for each
 * of its projects in turn. Progress (occurrences and issues) goes to `deletionId`.
 */
export async function deleteProjectRows(deps: DeletionRunDeps, deletionId: string, organizationId: string, projectId: string) {
  const { db } = deps;
  const tables = sweepOrder(await sweptTables(db));
  const ofProject = sql`organization_id = ${organizationId} and project_id = ${projectId}::uuid`;
  // Releases made for this project alone go with it (shared ones keep their other projects).
  await db.execute(
    sql`delete from releases where organization_id = ${organizationId} and id in (
          select rp.release_id from release_projects rp
           where rp.organization_id = ${organizationId} and rp.project_id = ${projectId}::uuid
             and not exists (select 1 from release_projects other where other.release_id = rp.release_id and other.project_id <> ${projectId}::uuid))`,
  );
  for (const table of tables) {
    if (table.name === "issues") {
      // Rows that name an issue but no project (issue_users) before the issues they belong to.
      for (const child of tables.filter((t) => t.hasIssueId && !t.hasProjectId)) {
        const where = sql`issue_id in (select id from issues where ${ofProject})`;
        await deleteAll(db, child, where, deps.batchSize, progressOf(deps, deletionId, child));
      }
    }
    if (!table.hasProjectId) continue;
    const where = table.hasOrganizationId ? ofProject : sql`project_id = ${projectId}::uuid`;
    await deleteAll(db, table, where, deps.batchSize, progressOf(deps, deletionId, table));
  }
  // Guards whose subject is the project itself (event-rate rules); the rules went with the project's rows.
  await db.execute(sql`delete from alert_rule_issue_fires where subject_id = ${projectId}::uuid`);
  // Queued jobs about the project (alert evaluation) would only find it gone.
  await db.execute(sql`delete from jobs where state = 'queued' and payload::jsonb ->> 'projectId' = ${projectId}`);
  await db.execute(sql`delete from projects where organization_id = ${organizationId} and id = ${projectId}::uuid`);
  deps.projectDeleted?.(projectId);
}
