import { and, count, eq, isNull } from "drizzle-orm";
import { DELETION_JOB_ATTEMPTS } from "./deletion-jobs";
import type { DeleteIssueInput, EraseUserDataInput } from "../../shared/deletion.inputs";
import type { DeletionImpactView, DeletionRequestedView, DeletionView } from "../../shared/deletion.views";
import type { ServiceContext } from "../context";
import type { Db } from "../db/client";
import { deletions, issues, occurrences, projects } from "../db/schema/index";
import { notFound } from "../errors";
import { requirePermission } from "../organizations/permissions";
import { requireProject } from "../projects/project-scope";
import { selectDeletion, selectDeletions, selectRequestedDeletion, type DeletionRow } from "./deletion.queries";
import { erasureTarget, type ErasedIdentity } from "./user-data-erasure";

type DeletionContext = Pick<ServiceContext, "db" | "org" | "jobs" | "checkedProject">;

const requestedBy = (ctx: Pick<ServiceContext, "org">) => `user:${ctx.org.userId}`;

function toView(row: DeletionRow): DeletionView {
  return {
    id: row.id,
    kind: row.kind as DeletionView["kind"],
    target: row.target,
    targetName: row.targetName,
    status: row.status as DeletionView["status"],
    done: row.done,
    total: row.total,
    requestedBy: row.requestedBy,
    error: row.error,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

/**
 * Records the deletion, marks its target and queues its job in ONE transaction: from the commit on
 * the target is gone for every reader (they skip marked rows) while the job removes its rows in
 * batches; the job exists exactly when the mark does (the transactional outbox).
 */
async function startDeletion(
  ctx: DeletionContext,
  row: { kind: DeletionView["kind"]; target: string; targetName: string | null },
  mark: (tx: Db, deletionId: string) => Promise<boolean>,
  identity?: ErasedIdentity,
): Promise<DeletionRequestedView> {
  const deletionId = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(deletions)
      .values({ organizationId: ctx.org.organizationId, kind: row.kind, target: row.target, targetName: row.targetName, requestedBy: requestedBy(ctx) })
      .returning({ id: deletions.id });
    // A target marked meanwhile by another request (or gone) is not found: one deletion per target.
    if (!(await mark(tx, created.id))) throw notFound(row.kind === "issue" ? "Issue" : "Project");
    await ctx.jobs.enqueueWith(
      tx,
      "deletion.run",
      { deletionId: created.id, ...(identity ? { identity } : {}) },
      { singletonKey: created.id, maxAttempts: DELETION_JOB_ATTEMPTS },
    );
    return created.id;
  });
  ctx.jobs.wake();
  return { deletionId };
}

export async function requestIssueDeletion(ctx: DeletionContext, input: DeleteIssueInput): Promise<DeletionRequestedView> {
  await requireProject(ctx, input.projectId);
  const [issue] = await ctx.db
    .select({ id: issues.id, title: issues.title })
    .from(issues)
    .where(
      and(eq(issues.organizationId, ctx.org.organizationId), eq(issues.projectId, input.projectId), eq(issues.id, input.issueId), isNull(issues.deletionId)),
    );
  if (!issue) throw notFound("Issue");
  await requirePermission(ctx, "issue:delete");
  return startDeletion(ctx, { kind: "issue", target: issue.id, targetName: issue.title }, async (tx, deletionId) => {
    const marked = await tx
      .update(issues)
      .set({ deletionId })
      .where(and(eq(issues.organizationId, ctx.org.organizationId), eq(issues.id, issue.id), isNull(issues.deletionId)))
      .returning({ id: issues.id });
    return marked.length > 0;
  });
}

/** `onMarked`: told after the commit (this process's ingest key cache forgets the project's keys at once). */
export async function requestProjectDeletion(ctx: DeletionContext & Pick<ServiceContext, "keyRevocations">, projectId: string): Promise<DeletionRequestedView> {
  const project = await requireProject(ctx, projectId);
  await requirePermission(ctx, "project:delete");
  const requested = await startDeletion(ctx, { kind: "project", target: project.id, targetName: project.name }, async (tx, deletionId) => {
    const marked = await tx
      .update(projects)
      .set({ deletionId })
      .where(and(eq(projects.organizationId, ctx.org.organizationId), eq(projects.id, project.id), isNull(projects.deletionId)))
      .returning({ id: projects.id });
    return marked.length > 0;
  });
  // After the commit: told before it, a lookup in between would cache the key as valid again.
  ctx.keyRevocations.projectDeleted(project.id);
  return requested;
}

/** Who may erase: whoever may change the organization's settings (admins and owners). */
export async function requestUserDataErasure(ctx: DeletionContext, input: EraseUserDataInput): Promise<DeletionRequestedView> {
  await requirePermission(ctx, "organization:update");
  const identity: ErasedIdentity =
    input.userId !== undefined
      ? { field: "id", value: input.userId }
      : input.email !== undefined
        ? { field: "email", value: input.email }
        : { field: "ip", value: input.ipAddress! };
  return startDeletion(ctx, { kind: "user_data", target: erasureTarget(identity), targetName: null }, () => Promise.resolve(true), identity);
}

export async function getDeletion(ctx: Pick<ServiceContext, "db" | "org">, deletionId: string): Promise<DeletionView> {
  const row = await selectDeletion(ctx.db, ctx.org.organizationId, deletionId);
  if (!row) throw notFound("Deletion");
  return toView(row);
}

/** A deletion the signed-in caller asked for, in whichever organization (one they may have deleted); anyone else's is not found. */
export async function getRequestedDeletion(ctx: Pick<ServiceContext, "db">, userId: string, deletionId: string): Promise<DeletionView> {
  const row = await selectRequestedDeletion(ctx.db, `user:${userId}`, deletionId);
  if (!row) throw notFound("Deletion");
  return toView(row);
}

/** The organization's latest deletions (the settings screen's list). */
export async function listDeletions(ctx: Pick<ServiceContext, "db" | "org">): Promise<DeletionView[]> {
  return (await selectDeletions(ctx.db, ctx.org.organizationId, 50)).map(toView);
}

/** What deleting the project would remove, for its confirmation. */
export async function projectDeletionImpact(ctx: Pick<ServiceContext, "db" | "org" | "checkedProject">, projectId: string): Promise<DeletionImpactView> {
  const project = await requireProject(ctx, projectId);
  const scope = (table: typeof issues | typeof occurrences) => and(eq(table.organizationId, ctx.org.organizationId), eq(table.projectId, project.id));
  const [[issueCount], [occurrenceCount]] = await Promise.all([
    ctx.db.select({ count: count() }).from(issues).where(scope(issues)),
    ctx.db.select({ count: count() }).from(occurrences).where(scope(occurrences)),
  ]);
  return { issues: issueCount.count, occurrences: occurrenceCount.count };
}
