import type { OrganizationStorage, ProjectStorage } from "../../shared/export.views";
import type { LagTolerantReads, ServiceContext } from "../context";
import { readDbOf } from "../db/read-db";
import { selectAverageRowBytes, selectStorageProjects, selectStoredCounts } from "./storage.queries";

const SIZE_READS_AT_ONCE = 4;

/**
 * What the organization stores, per project and in total. Exact: occurrences and the oldest kept
 * day (the daily rollups). Estimated: bytes = the average stored size of the project's newest
 * occurrences × its occurrences (storage.queries.ts). Any member may read it, as they read the
 * organization's projects.
 */
export async function organizationStorage(ctx: Pick<ServiceContext, "db" | "org"> & LagTolerantReads): Promise<OrganizationStorage> {
  const { organizationId } = ctx.org;
  // Figures that tolerate lag: the read replica when the request may use it (context.ts).
  const db = readDbOf(ctx);
  const list = await selectStorageProjects(db, organizationId);
  const ids = list.map((project) => project.id);
  const counts = await selectStoredCounts(db, organizationId, ids);
  const countOf = new Map(counts.map((row) => [row.projectId, row]));
  const sizeOf = new Map<string, number>();
  // A few projects at a time: each is one short index read, and the pool is shared with ingest.
  for (let start = 0; start < ids.length; start += SIZE_READS_AT_ONCE) {
    const chunk = ids.slice(start, start + SIZE_READS_AT_ONCE).filter((id) => (countOf.get(id)?.occurrences ?? 0) > 0);
    const sizes = await Promise.all(chunk.map((id) => selectAverageRowBytes(db, organizationId, id)));
    chunk.forEach((id, index) => sizeOf.set(id, sizes[index]));
  }
  const projects: ProjectStorage[] = list.map((project) => {
    const occurrences = countOf.get(project.id)?.occurrences ?? 0;
    return {
      projectId: project.id,
      name: project.name,
      slug: project.slug,
      occurrences,
      bytes: Math.round(occurrences * (sizeOf.get(project.id) ?? 0)),
      oldestDay: countOf.get(project.id)?.oldestDay ?? null,
    };
  });
  const days = projects.map((project) => project.oldestDay).filter((day): day is string => day !== null);
  return {
    projects,
    totals: {
      occurrences: projects.reduce((sum, project) => sum + project.occurrences, 0),
      bytes: projects.reduce((sum, project) => sum + project.bytes, 0),
      oldestDay: days.length ? days.sort()[0] : null,
    },
    bytesMethod: "sampled-row-size",
  };
}
