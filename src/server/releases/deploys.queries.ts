import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { deploys } from "../db/schema/index";

// Every query takes the organization id.

export type DeployRow = typeof deploys.$inferSelect;

export async function insertDeploy(
  db: Db,
  organizationId: string,
  releaseId: string,
  fields: { environment: string; name?: string | null; url?: string | null; dateStarted?: Date | null; dateFinished?: Date | null },
): Promise<DeployRow> {
  const [row] = await db
    .insert(deploys)
    .values({
      organizationId,
      releaseId,
      environment: fields.environment,
      name: fields.name ?? null,
      url: fields.url ?? null,
      dateStarted: fields.dateStarted ?? null,
      ...(fields.dateFinished ? { dateFinished: fields.dateFinished } : {}),
    })
    .returning();
  return row;
}

/** The deploys of a release, the latest finished first. */
export function selectDeploys(db: Db, organizationId: string, releaseId: string, limit = 1000): Promise<DeployRow[]> {
  return db
    .select()
    .from(deploys)
    .where(and(eq(deploys.organizationId, organizationId), eq(deploys.releaseId, releaseId)))
    .orderBy(desc(deploys.dateFinished), desc(deploys.createdAt))
    .limit(limit);
}

/** For each release: how many deploys and the latest finished one. */
export async function selectDeploySummaries(
  db: Db,
  organizationId: string,
  releaseIds: readonly string[],
): Promise<Map<string, { deployCount: number; lastDeploy: DeployRow }>> {
  const summaries = new Map<string, { deployCount: number; lastDeploy: DeployRow }>();
  if (releaseIds.length === 0) return summaries;
  const rows = await db
    .selectDistinctOn([deploys.releaseId], { deploy: deploys, count: sql<number>`count(*) over (partition by ${deploys.releaseId})::int` })
    .from(deploys)
    .where(and(eq(deploys.organizationId, organizationId), inArray(deploys.releaseId, [...releaseIds])))
    .orderBy(deploys.releaseId, desc(deploys.dateFinished), desc(deploys.createdAt));
  for (const row of rows) summaries.set(row.deploy.releaseId, { deployCount: Number(row.count), lastDeploy: row.deploy });
  return summaries;
}
