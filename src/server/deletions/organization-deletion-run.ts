import { sql } from "drizzle-orm";
import { executeRows } from "../db/execute";
import { deleteAll } from "./batch-delete";
import { countRows, deleteProjectRows, type DeletionRunDeps } from "./project-deletion-run";
import { markRunning, type DeletionRow } from "./deletion.queries";
import { organizationTables } from "./organization-tables";

/**
 * An organization's deletion job. The request already took everyone's access away (memberships,
 * invitations, API tokens, sessions' active organization) and marked its projects; here each
 * project goes as a project deletion does (batches by key, occurrences first), then every other
 * row carrying the organization's id, table by table from the catalog, and the organization row
 * last, whose cascades find nothing left. Each step commits on its own and is idempotent: a retry
 * after a crash goes on from the projects and rows that are left.
 */
export async function deleteOrganization(deps: DeletionRunDeps, deletion: DeletionRow) {
  const { db } = deps;
  const organizationId = deletion.organizationId;
  if (deletion.status === "pending") {
    const occurrences = await countRows(db, sql`select count(*) as count from occurrences where organization_id = ${organizationId}`);
    const issues = await countRows(db, sql`select count(*) as count from issues where organization_id = ${organizationId}`);
    await markRunning(db, deletion.id, occurrences + issues);
  }
  const projects = await executeRows<{ id: string }>(db, sql`select id::text as id from projects where organization_id = ${organizationId} order by id`);
  for (const project of projects) await deleteProjectRows(deps, deletion.id, organizationId, project.id);
  for (const table of await organizationTables(db)) {
    await deleteAll(db, table, sql`organization_id = ${organizationId}`, deps.batchSize, async () => {
      await deps.onBatch?.();
    });
  }
  // Queued jobs of the organization (alert checks, assemblies) would only find it gone; this job is running, not queued.
  await db.execute(sql`delete from jobs where state = 'queued' and payload::jsonb ->> 'organizationId' = ${organizationId}`);
  // The request cleared them already; a session naming the organization must not outlive it whatever happened since.
  await db.execute(sql`update sessions set active_organization_id = null where active_organization_id = ${organizationId}`);
  await db.execute(sql`delete from organizations where id = ${organizationId}`);
}
