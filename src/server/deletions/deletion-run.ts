import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { deleteAll } from "./batch-delete";
import { sweptTables } from "./deletion-tables";
import { addDone, markDone, markFailed, markRunning, selectDeletionById, type DeletionRow } from "./deletion.queries";
import { deleteOrganization } from "./organization-deletion-run";
import { countRows, deleteProjectRows, progressOf, sweepOrder, type DeletionRunDeps } from "./project-deletion-run";
import { eraseUserData, type ErasedIdentity } from "./user-data-erasure";

/** The job's payload: the deletion, and for an erasure the identifier (kept only in the job row, never in the audit). */
export interface DeletionJob {
  deletionId: string;
  identity?: ErasedIdentity;
}

/**
 * Runs one deletion to its end (the job "deletion.run"). Every step is idempotent and commits on
 * its own — a batch, then its count — so a job retried after a crash or a restart goes on where the
 * rows say it was: nothing is remembered in memory. Rows are removed by the scope indexes in
 * batches of `batchSize`, the largest table first, each owned row before the row that owns it; the
 * target's own row goes last, and its foreign-key cascades then find nothing large left.
 */
export async function runDeletion(deps: DeletionRunDeps, job: DeletionJob): Promise<void> {
  const deletion = await selectDeletionById(deps.db, job.deletionId);
  if (!deletion || deletion.status === "done" || deletion.status === "failed") return;
  try {
    if (deletion.kind === "issue") await deleteIssue(deps, deletion);
    else if (deletion.kind === "project") await deleteProject(deps, deletion);
    else if (deletion.kind === "organization") await deleteOrganization(deps, deletion);
    else if (deletion.kind === "user_data") {
      if (!job.identity) throw new Error("An erasure's job carries no identifier");
      if (deletion.status === "pending") await markRunning(deps.db, deletion.id, 0);
      await eraseUserData(deps, deletion, job.identity);
    } else throw new Error(`Unknown deletion kind ${deletion.kind}`);
    await markDone(deps.db, deletion.id, deletion.kind === "user_data");
    deps.logger.info("deletion done", { deletionId: deletion.id, kind: deletion.kind });
  } catch (error) {
    deps.logger.warn("deletion batch failed (the job retries it)", { deletionId: deletion.id, err: error });
    throw error;
  }
}

/** The job queue gave the job up: the deletion says so (its rows stay hidden; a new request can finish it). */
export async function deletionGivenUp(db: Db, deletionId: string, error: unknown) {
  await markFailed(db, deletionId, error instanceof Error ? error.message : String(error));
}

async function deleteIssue(deps: DeletionRunDeps, deletion: DeletionRow) {
  const { db } = deps;
  const organizationId = deletion.organizationId;
  const issueId = deletion.target;
  if (deletion.status === "pending") {
    const total = await countRows(db, sql`select count(*) as count from occurrences where organization_id = ${organizationId} and issue_id = ${issueId}::uuid`);
    await markRunning(db, deletion.id, total + 1);
  }
  await subtractFromProjectCounts(db, organizationId, issueId);
  for (const table of sweepOrder(await sweptTables(db))) {
    if (!table.hasIssueId) continue;
    const where = table.hasOrganizationId
      ? sql`organization_id = ${organizationId} and issue_id = ${issueId}::uuid`
      : sql`issue_id = ${issueId}::uuid and exists (select 1 from issues i where i.id = ${issueId}::uuid and i.organization_id = ${organizationId})`;
    await deleteAll(db, table, where, deps.batchSize, progressOf(deps, deletion.id, table));
  }
  // Alert guards keyed by the issue as their subject.
  await db.execute(
    sql`delete from alert_rule_issue_fires f using alert_rules r
         where f.rule_id = r.id and r.organization_id = ${organizationId} and f.subject_id = ${issueId}::uuid`,
  );
  const gone = await executeRows<{ one: number }>(
    db,
    sql`delete from issues where organization_id = ${organizationId} and id = ${issueId}::uuid returning 1 as one`,
  );
  if (gone.length > 0) await addDone(db, deletion.id, gone.length);
}

/**
 * The project's daily counts (its charts) lose the deleted issue's events, as Sentry's do: the
 * issue's daily rows are deleted and subtracted in ONE statement, so a retry cannot subtract twice.
 * Ingest outcomes (usage) keep them: those events were received and counted against the plan.
 */
async function subtractFromProjectCounts(db: Db, organizationId: string, issueId: string) {
  await db.execute(
    sql`with gone as (
          delete from issue_daily_counts where organization_id = ${organizationId} and issue_id = ${issueId}::uuid
          returning project_id, environment, day, count),
        sums as (select project_id, environment, day, sum(count) as count from gone group by project_id, environment, day)
        update project_daily_counts p set count = greatest(p.count - sums.count, 0)
          from sums where p.project_id = sums.project_id and p.environment = sums.environment and p.day = sums.day`,
  );
}

async function deleteProject(deps: DeletionRunDeps, deletion: DeletionRow) {
  const { db } = deps;
  const organizationId = deletion.organizationId;
  const projectId = deletion.target;
  if (deletion.status === "pending") {
    const occurrences = await countRows(
      db,
      sql`select count(*) as count from occurrences where organization_id = ${organizationId} and project_id = ${projectId}::uuid`,
    );
    const issues = await countRows(db, sql`select count(*) as count from issues where organization_id = ${organizationId} and project_id = ${projectId}::uuid`);
    await markRunning(db, deletion.id, occurrences + issues);
  }
  await deleteProjectRows(deps, deletion.id, organizationId, projectId);
}
