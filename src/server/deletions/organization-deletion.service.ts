import { and, count, eq, isNull, sql } from "drizzle-orm";
import { DELETION_JOB_ATTEMPTS } from "./deletion-jobs";
import type { DeleteOrganizationInput } from "../../shared/deletion.inputs";
import type { DeletionRequestedView, OrganizationDeletionImpactView } from "../../shared/deletion.views";
import type { ServiceContext } from "../context";
import { apiTokens, deletions, invitation, issues, member, occurrences, projects, session } from "../db/schema/index";
import { executeRows } from "../db/execute";
import { notFound } from "../errors";
import { requirePermission } from "../organizations/permissions";

type OrganizationDeletionContext = Pick<ServiceContext, "db" | "org" | "jobs" | "keyRevocations">;

/** The input names the organization the confirmation showed: another one (the session moved meanwhile) is not found. */
function requireActive(ctx: Pick<ServiceContext, "org">, organizationId: string) {
  if (organizationId !== ctx.org.organizationId) throw notFound("Organization");
}

/**
 * Deletes the caller's organization through the deletion job. ONE transaction writes the audit
 * row, takes every way in away — memberships, pending invitations, API tokens (small tables, so at
 * once; better-auth's own endpoints then see no member either), sessions' active organization —
 * marks every project (its keys refused by ingest, its issues hidden, its alerts silent) and queues
 * the job, which removes the data in batches. The audit row is the only row of the organization
 * left when the job is done, read by its requester at `deletion.requested` /
 * GET /api/v1/deletions/{deletionId}: the requester is no member any more.
 */
export async function requestOrganizationDeletion(ctx: OrganizationDeletionContext, input: DeleteOrganizationInput): Promise<DeletionRequestedView> {
  // A member lacking the grant is refused before any id is looked at (as every other route answers).
  await requirePermission(ctx, "organization:delete");
  requireActive(ctx, input.organizationId);
  const organizationId = ctx.org.organizationId;
  const { deletionId, projectIds } = await ctx.db.transaction(async (tx) => {
    // The row lock orders two requests at once: the second finds no membership left.
    const [org] = await executeRows<{ name: string }>(tx, sql`select name from organizations where id = ${organizationId} for update`);
    const [stillMember] = await tx
      .select({ id: member.id })
      .from(member)
      .where(and(eq(member.organizationId, organizationId), eq(member.userId, ctx.org.userId)));
    if (!org || !stillMember) throw notFound("Organization");
    const [created] = await tx
      .insert(deletions)
      .values({ organizationId, kind: "organization", target: organizationId, targetName: org.name, requestedBy: `user:${ctx.org.userId}` })
      .returning({ id: deletions.id });
    const marked = await tx
      .update(projects)
      .set({ deletionId: created.id })
      .where(and(eq(projects.organizationId, organizationId), isNull(projects.deletionId)))
      .returning({ id: projects.id });
    // Tokens first: each hangs on its creator's membership.
    await tx.delete(apiTokens).where(eq(apiTokens.organizationId, organizationId));
    await tx.delete(invitation).where(eq(invitation.organizationId, organizationId));
    await tx.delete(member).where(eq(member.organizationId, organizationId));
    await tx.update(session).set({ activeOrganizationId: null }).where(eq(session.activeOrganizationId, organizationId));
    await ctx.jobs.enqueueWith(tx, "deletion.run", { deletionId: created.id }, { singletonKey: created.id, maxAttempts: DELETION_JOB_ATTEMPTS });
    return { deletionId: created.id, projectIds: marked.map((row) => row.id) };
  });
  ctx.jobs.wake();
  // After the commit: told before it, a lookup in between would cache a key as valid again.
  for (const projectId of projectIds) ctx.keyRevocations.projectDeleted(projectId);
  return { deletionId };
}

/** What deleting the organization would remove, for its confirmation. */
export async function organizationDeletionImpact(ctx: Pick<ServiceContext, "db" | "org">): Promise<OrganizationDeletionImpactView> {
  await requirePermission(ctx, "organization:delete");
  const organizationId = ctx.org.organizationId;
  const [[projectCount], [issueCount], [occurrenceCount]] = await Promise.all([
    ctx.db
      .select({ count: count() })
      .from(projects)
      .where(and(eq(projects.organizationId, organizationId), isNull(projects.deletionId))),
    ctx.db
      .select({ count: count() })
      .from(issues)
      .where(and(eq(issues.organizationId, organizationId), isNull(issues.deletionId))),
    ctx.db.select({ count: count() }).from(occurrences).where(eq(occurrences.organizationId, organizationId)),
  ]);
  return { projects: projectCount.count, issues: issueCount.count, occurrences: occurrenceCount.count };
}
