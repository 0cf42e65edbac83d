import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { deletions } from "../db/schema/index";

// Every read takes the organization id: a deletion id alone never reaches another tenant's row.

export type DeletionRow = typeof deletions.$inferSelect;

export async function selectDeletion(db: Db, organizationId: string, deletionId: string): Promise<DeletionRow | null> {
  const [row] = await db
    .select()
    .from(deletions)
    .where(and(eq(deletions.organizationId, organizationId), eq(deletions.id, deletionId)))
    .limit(1);
  return row ?? null;
}

/** The organization's latest deletions, newest first (its index). */
export function selectDeletions(db: Db, organizationId: string, limit: number) {
  return db.select().from(deletions).where(eq(deletions.organizationId, organizationId)).orderBy(desc(deletions.createdAt)).limit(limit);
}

/**
 * A deletion by whoever asked for it (`user:<id>`), in any organization: an organization's deletion
 * outlives its requester's membership, and its progress stays theirs to read.
 */
export async function selectRequestedDeletion(db: Db, requestedBy: string, deletionId: string): Promise<DeletionRow | null> {
  const [row] = await db
    .select()
    .from(deletions)
    .where(and(eq(deletions.requestedBy, requestedBy), eq(deletions.id, deletionId)))
    .limit(1);
  return row ?? null;
}

/** The job's own read: it is given a deletion id the server wrote itself. */
export async function selectDeletionById(db: Db, deletionId: string): Promise<DeletionRow | null> {
  const [row] = await db.select().from(deletions).where(eq(deletions.id, deletionId)).limit(1);
  return row ?? null;
}

export async function markRunning(db: Db, deletionId: string, total: number) {
  await db
    .update(deletions)
    .set({ status: "running", total, startedAt: sql`coalesce(${deletions.startedAt}, now())` })
    .where(eq(deletions.id, deletionId));
}

/** One batch's count, committed on its own after the batch: the progress a restart resumes from. */
export async function addDone(db: Db, deletionId: string, count: number) {
  await db
    .update(deletions)
    .set({ done: sql`${deletions.done} + ${count}` })
    .where(eq(deletions.id, deletionId));
}

/** Done: `done` reaches `total` (rows counted before a crash may have been deleted twice over, or not counted). */
export async function markDone(db: Db, deletionId: string, erasure: boolean) {
  await db
    .update(deletions)
    .set({
      status: "done",
      finishedAt: new Date(),
      ...(erasure
        ? { total: sql`${deletions.done}` }
        : { done: sql`greatest(${deletions.done}, ${deletions.total})`, total: sql`greatest(${deletions.done}, ${deletions.total})` }),
    })
    .where(eq(deletions.id, deletionId));
}

export async function markFailed(db: Db, deletionId: string, error: string) {
  await db
    .update(deletions)
    .set({ status: "failed", error: error.slice(0, 1000), finishedAt: new Date() })
    .where(eq(deletions.id, deletionId));
}
