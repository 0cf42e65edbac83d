import { and, eq, inArray, type SQL } from "drizzle-orm";
import type { DeleteReleaseSourceMapsInput, ListSourceMapBundlesInput, SourceMapBundleInput } from "../../shared/source-map.inputs";
import type { DeletedSourceMapBundles, SourceMapBundleView } from "../../shared/source-map.views";
import type { ServiceContext } from "../context";
import { artifactBundleFiles, artifactBundles } from "../db/schema/index";
import { notFound } from "../errors";
import { requirePermission } from "../organizations/permissions";
import { requireProject } from "../projects/project-scope";
import { artifactStorage } from "./artifact-storage";
import { deleteAssembly, deleteUnreferencedBlobs, distIs, selectBundlesByChecksum, selectProjectBundles } from "./artifact.queries";

/** A page is plenty for a settings screen: bundles are few per release and old ones are deleted. */
const LIST_LIMIT = 200;

export async function listSourceMapBundles(ctx: ServiceContext, input: ListSourceMapBundlesInput): Promise<SourceMapBundleView[]> {
  await requireProject(ctx, input.projectId);
  const rows = await selectProjectBundles(
    ctx.db,
    ctx.org.organizationId,
    input.projectId,
    { release: input.release, dist: input.release === undefined ? undefined : (input.dist ?? null) },
    LIST_LIMIT,
  );
  return rows.map((row) => ({
    id: row.id,
    checksum: row.checksum,
    debugId: row.bundleId,
    release: row.release,
    dist: row.dist,
    fileCount: row.fileCount,
    size: row.size,
    createdAt: row.createdAt,
  }));
}

/**
 * Deletes bundles of the project with their index rows; the files no other bundle of the
 * organization holds go too, and so does the upload state of a checksum left without bundles
 * (uploading the same bundle again then stores it afresh).
 */
async function deleteBundles(ctx: ServiceContext, projectId: string, where: SQL): Promise<DeletedSourceMapBundles> {
  const organizationId = ctx.org.organizationId;
  const { deleted, orphans } = await ctx.db.transaction(async (tx) => {
    const scope = and(eq(artifactBundles.organizationId, organizationId), eq(artifactBundles.projectId, projectId), where);
    const bundles = await tx.select({ id: artifactBundles.id, checksum: artifactBundles.checksum }).from(artifactBundles).where(scope).for("update");
    if (bundles.length === 0) return { deleted: 0, orphans: [] };
    const ids = bundles.map((bundle) => bundle.id);
    const files = await tx
      .selectDistinct({ sha1: artifactBundleFiles.sha1 })
      .from(artifactBundleFiles)
      .where(and(eq(artifactBundleFiles.organizationId, organizationId), inArray(artifactBundleFiles.bundleId, ids)));
    await tx.delete(artifactBundles).where(and(eq(artifactBundles.organizationId, organizationId), inArray(artifactBundles.id, ids)));
    const orphans = await deleteUnreferencedBlobs(
      tx,
      organizationId,
      files.map((file) => file.sha1),
    );
    for (const checksum of new Set(bundles.map((bundle) => bundle.checksum))) {
      if ((await selectBundlesByChecksum(tx, organizationId, checksum)).length === 0) await deleteAssembly(tx, organizationId, checksum);
    }
    return { deleted: bundles.length, orphans };
  });
  // After the commit: a rolled-back delete must not lose bytes its rows still name.
  await artifactStorage(ctx.env).remove("blobs", organizationId, orphans);
  return { deleted };
}

export async function deleteSourceMapBundle(ctx: ServiceContext, input: SourceMapBundleInput): Promise<DeletedSourceMapBundles> {
  await requireProject(ctx, input.projectId);
  await requirePermission(ctx, "release:manage");
  const result = await deleteBundles(ctx, input.projectId, eq(artifactBundles.id, input.bundleId) as SQL);
  if (result.deleted === 0) throw notFound("Bundle");
  return result;
}

export async function deleteReleaseSourceMaps(ctx: ServiceContext, input: DeleteReleaseSourceMapsInput): Promise<DeletedSourceMapBundles> {
  await requireProject(ctx, input.projectId);
  await requirePermission(ctx, "release:manage");
  return deleteBundles(ctx, input.projectId, and(eq(artifactBundles.release, input.release), distIs(input.dist ?? null)) as SQL);
}
