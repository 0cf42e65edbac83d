import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { onPlusPlan, plansApply } from "../billing/organization-plan";
import type { Db } from "../db/client";
import { dataSettings, projects } from "../db/schema/index";
import { effectiveRetention, retentionPolicy, type RetentionSettings } from "./retention-policy";

export interface ProjectRetention {
  organizationId: string;
  projectId: string;
  /** Days its exceptions are kept: product default → organization → project → the plan's cap. */
  retentionDays: number;
}

const organizationLayer = alias(dataSettings, "organization_layer");
const projectLayer = alias(dataSettings, "project_layer");

/**
 * The retention of every project not being deleted, in every organization — what the maintenance
 * job enforces. One statement whatever the number of projects: each project with its
 * organization's layer, its own, and (on the hosted deployment) whether the organization is on plus.
 * A project being deleted is left out: its deletion job removes all of its rows anyway.
 */
export async function listProjectRetention(db: Db, env: RetentionSettings): Promise<ProjectRetention[]> {
  const cloud = plansApply(env);
  const rows = await db
    .select({
      organizationId: projects.organizationId,
      projectId: projects.id,
      organizationDays: organizationLayer.retentionDays,
      projectDays: projectLayer.retentionDays,
      plus: cloud ? onPlusPlan(projects.organizationId) : sql<boolean>`false`,
    })
    .from(projects)
    .leftJoin(organizationLayer, and(eq(organizationLayer.organizationId, projects.organizationId), isNull(organizationLayer.projectId)))
    .leftJoin(projectLayer, eq(projectLayer.projectId, projects.id))
    .where(isNull(projects.deletionId))
    .orderBy(asc(projects.organizationId), asc(projects.id));
  const policies = { free: retentionPolicy(env, "free"), plus: retentionPolicy(env, "plus") };
  return rows.map((row) => ({
    organizationId: row.organizationId,
    projectId: row.projectId,
    retentionDays: effectiveRetention(policies[row.plus ? "plus" : "free"], row.organizationDays, row.projectDays).days,
  }));
}
