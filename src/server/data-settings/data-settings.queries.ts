import { and, eq, inArray, isNull, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { dataSettings, projects, scrubDailyCounts } from "../db/schema/index";
import type { DataSettingsLayer } from "../../shared/data-settings.views";

const layerColumns = {
  retentionDays: dataSettings.retentionDays,
  scrubDefaults: dataSettings.scrubDefaults,
  storeIpAddresses: dataSettings.storeIpAddresses,
  sensitiveFields: dataSettings.sensitiveFields,
  safeFields: dataSettings.safeFields,
  rules: dataSettings.rules,
};

type LayerRow = { [K in keyof typeof layerColumns]: unknown };

/** A stored row as a layer: columns as written, null where the row says nothing (or there is no row). */
export function toLayer(row: LayerRow | undefined): DataSettingsLayer {
  return {
    retentionDays: (row?.retentionDays as number | null) ?? null,
    scrubDefaults: (row?.scrubDefaults as boolean | null) ?? null,
    storeIpAddresses: (row?.storeIpAddresses as boolean | null) ?? null,
    sensitiveFields: (row?.sensitiveFields as string[] | null) ?? null,
    safeFields: (row?.safeFields as string[] | null) ?? null,
    rules: (row?.rules as DataSettingsLayer["rules"]) ?? null,
  };
}

/** The organization's row and, when a project is named, that project's: the two layers above the product default. */
export async function selectDataSettingsLayers(db: Db, organizationId: string, projectId: string | null) {
  const rows = await db
    .select({ projectId: dataSettings.projectId, ...layerColumns })
    .from(dataSettings)
    .where(
      and(
        eq(dataSettings.organizationId, organizationId),
        projectId === null ? isNull(dataSettings.projectId) : sql`(${dataSettings.projectId} is null or ${dataSettings.projectId} = ${projectId})`,
      ),
    );
  return {
    organization: toLayer(rows.find((row) => row.projectId === null)),
    project: projectId === null ? null : toLayer(rows.find((row) => row.projectId === projectId)),
  };
}

/** Writes one layer whole (organization when projectId is null); one statement, so concurrent writes settle on the unique index. */
export async function upsertDataSettingsLayer(db: Db, organizationId: string, projectId: string | null, layer: DataSettingsLayer) {
  const values = { ...layer, updatedAt: new Date() };
  await db
    .insert(dataSettings)
    .values({ organizationId, projectId, ...values })
    .onConflictDoUpdate(
      projectId === null
        ? { target: dataSettings.organizationId, targetWhere: isNull(dataSettings.projectId), set: values }
        : { target: dataSettings.projectId, targetWhere: isNotNull(dataSettings.projectId), set: values },
    );
}

/** Values scrubbed on `day` in the given projects, or in all of the organization's. */
export async function sumScrubbedOn(db: Db, organizationId: string, day: string, projectId: string | null): Promise<number> {
  const projectIds = db.select({ id: projects.id }).from(projects).where(eq(projects.organizationId, organizationId));
  const [row] = await db
    .select({ total: sql<string | null>`sum(${scrubDailyCounts.count})` })
    .from(scrubDailyCounts)
    .where(
      and(eq(scrubDailyCounts.day, day), projectId === null ? inArray(scrubDailyCounts.projectId, projectIds) : eq(scrubDailyCounts.projectId, projectId)),
    );
  return Number(row?.total ?? 0);
}
