import { randomBytes } from "node:crypto";
import { and, desc, eq, gte, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { issueActivities, issues, occurrences, projects, user, wafBlockAudit, wafConnections } from "../../db/schema/index";

export type WafConnectionRow = typeof wafConnections.$inferSelect;

export async function selectWafConnection(db: Db, organizationId: string): Promise<WafConnectionRow | null> {
  const [row] = await db.select().from(wafConnections).where(eq(wafConnections.organizationId, organizationId)).limit(1);
  return row ?? null;
}

/** The organization's row, created with a fresh ExternalId on first sight (two racing first views keep one). */
export async function ensureWafConnectionRow(db: Db, organizationId: string): Promise<WafConnectionRow> {
  const existing = await selectWafConnection(db, organizationId);
  if (existing) return existing;
  await db
    .insert(wafConnections)
    .values({ organizationId, externalId: `faultline-${randomBytes(16).toString("hex")}` })
    .onConflictDoNothing();
  return (await selectWafConnection(db, organizationId))!;
}

export async function updateWafConnection(db: Db, organizationId: string, values: Partial<Omit<WafConnectionRow, "organizationId" | "externalId">>) {
  await db
    .update(wafConnections)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(wafConnections.organizationId, organizationId));
}

/** Disconnect: credentials and block list go, the ExternalId stays (a role's trust policy names it). */
export function clearWafConnection(db: Db, organizationId: string) {
  return updateWafConnection(db, organizationId, {
    region: null,
    scope: null,
    accessKeyIdSealed: null,
    secretAccessKeySealed: null,
    accessKeyIdLast4: null,
    roleArn: null,
    blockListIpSetId: null,
    blockListIpSetName: null,
    blockListIpSetArn: null,
    blockListVersion: null,
    status: null,
    lastError: null,
    connectedAt: null,
    connectedByUserId: null,
  });
}

export interface AuditRecord {
  organizationId: string;
  actorUserId: string;
  action: "block" | "unblock";
  ip: string;
  cidr: string;
  ipSetId: string;
  ipSetName: string;
  outcome: "changed" | "unchanged";
  projectId: string | null;
  issueId: string | null;
  exceptionId: string | null;
}

/** The audit row, and the issue's activity when the block came from an issue (one transaction: both or neither). */
export function recordBlock(db: Db, record: AuditRecord) {
  return db.transaction(async (tx) => {
    await tx.insert(wafBlockAudit).values(record);
    if (record.issueId && record.projectId) {
      await tx.insert(issueActivities).values({
        organizationId: record.organizationId,
        projectId: record.projectId,
        issueId: record.issueId,
        actorUserId: record.actorUserId,
        kind: record.action === "block" ? "waf_block" : "waf_unblock",
        fromValue: record.ipSetName,
        toValue: record.cidr,
      });
    }
  });
}

export function selectAudit(db: Db, organizationId: string, options: { limit: number; cidr?: string }) {
  const filters = [eq(wafBlockAudit.organizationId, organizationId)];
  if (options.cidr) filters.push(eq(wafBlockAudit.cidr, options.cidr));
  return db
    .select({ row: wafBlockAudit, actorId: user.id, actorName: user.name, actorEmail: user.email })
    .from(wafBlockAudit)
    .leftJoin(user, eq(user.id, wafBlockAudit.actorUserId))
    .where(and(...filters))
    .orderBy(desc(wafBlockAudit.createdAt), desc(wafBlockAudit.id))
    .limit(options.limit);
}

/**
 * Resolves the project, issue and exception a block names, inside the caller's organization only
 * (another tenant's id matches nothing, hence NOT_FOUND upstream). Missing parents are filled in
 * from the child: an exception names its issue and project.
 */
export async function resolveBlockOrigin(db: Db, organizationId: string, ids: { projectId?: string; issueId?: string; exceptionId?: string }) {
  let { projectId, issueId } = ids;
  const { exceptionId } = ids;
  if (exceptionId) {
    const [row] = await db
      .select({ projectId: occurrences.projectId, issueId: occurrences.issueId })
      .from(occurrences)
      .where(and(eq(occurrences.organizationId, organizationId), eq(occurrences.id, exceptionId)))
      .limit(1);
    if (!row || (projectId && row.projectId !== projectId) || (issueId && row.issueId !== issueId)) return null;
    ({ projectId, issueId } = row);
  }
  if (issueId) {
    const [row] = await db
      .select({ projectId: issues.projectId })
      .from(issues)
      .where(and(eq(issues.organizationId, organizationId), eq(issues.id, issueId)))
      .limit(1);
    if (!row || (projectId && row.projectId !== projectId)) return null;
    projectId = row.projectId;
  }
  if (projectId) {
    const [row] = await db
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.organizationId, organizationId), eq(projects.id, projectId), isNull(projects.deletionId)))
      .limit(1);
    if (!row) return null;
  }
  return { projectId: projectId ?? null, issueId: issueId ?? null, exceptionId: exceptionId ?? null };
}

/**
 * A few recent exceptions of the organization whose stored request or user carries this client
 * IP. The IP lives inside the `data` text (no column), so the search is bounded to the sampled
 * window and walks the organization's newest rows through their index.
 */
export function selectExceptionsFromIp(db: Db, organizationId: string, ip: string, since: Date, limit = 5) {
  const needles = [`%"clientIp":${JSON.stringify(ip)}%`, `%"ip":${JSON.stringify(ip)}%`];
  return db
    .select({ projectId: occurrences.projectId, issueId: occurrences.issueId, exceptionId: occurrences.id, name: occurrences.name })
    .from(occurrences)
    .where(
      and(
        eq(occurrences.organizationId, organizationId),
        // The day bound lets PostgreSQL skip the older week partitions.
        gte(occurrences.receivedOn, since.toISOString().slice(0, 10)),
        gte(occurrences.receivedAt, since),
        sql`(${occurrences.data} like ${needles[0]} or ${occurrences.data} like ${needles[1]})`,
      ),
    )
    .orderBy(desc(occurrences.receivedAt))
    .limit(limit);
}
