import { and, desc, eq, inArray, isNull, type SQL } from "drizzle-orm";
import type { AppServices } from "../context";
import { artifactBundleFiles, artifactBundles } from "../db/schema/index";
import { normalizeDebugId } from "./artifact-bundle-reader";
import { artifactStorage } from "./artifact-storage";
import { selectBlobData } from "./artifact.queries";
import type { ArtifactType, DebugIdArtifacts, SourceMapStore, StoredArtifact, UrlArtifact } from "./source-map-store";

type FileRow = typeof artifactBundleFiles.$inferSelect;

const sameDist = (dist: string | null): SQL => (dist === null ? isNull(artifactBundleFiles.dist) : eq(artifactBundleFiles.dist, dist)) as SQL;

/**
 * The SourceMapStore over the bundles the upload side indexed (artifact_bundle_files). Every query
 * names the project; when several bundles of the project hold the same key, the newest wins.
 */
export function databaseSourceMapStore(deps: Pick<AppServices, "db" | "env">): SourceMapStore {
  const storage = artifactStorage(deps.env);
  const artifactOf = (row: FileRow): StoredArtifact => ({
    sha1: row.sha1,
    size: row.size,
    read: async () => {
      const blob = await selectBlobData(deps.db, row.organizationId, row.sha1);
      if (!blob) throw new Error(`artifact ${row.sha1} is gone`);
      return storage.read("blobs", row.organizationId, row.sha1, blob.data);
    },
  });
  const newest = (where: SQL, limit: number) =>
    deps.db
      .select({ file: artifactBundleFiles })
      .from(artifactBundleFiles)
      .innerJoin(artifactBundles, eq(artifactBundles.id, artifactBundleFiles.bundleId))
      .where(where)
      .orderBy(desc(artifactBundles.createdAt), desc(artifactBundles.id))
      .limit(limit);

  return {
    async findByDebugId(projectId, debugId) {
      const id = normalizeDebugId(debugId);
      if (!id) return undefined;
      const rows = await newest(
        and(
          eq(artifactBundleFiles.projectId, projectId),
          eq(artifactBundleFiles.debugId, id),
          inArray(artifactBundleFiles.type, ["source_map", "minified_source"]),
        ) as SQL,
        20,
      );
      const sourceMap = rows.find((row) => row.file.type === "source_map")?.file;
      const minified = rows.find((row) => row.file.type === "minified_source")?.file;
      if (!sourceMap && !minified) return undefined;
      const found: DebugIdArtifacts = {};
      if (sourceMap) found.sourceMap = artifactOf(sourceMap);
      if (minified) found.minifiedSource = artifactOf(minified);
      return found;
    },
    async findByUrl(projectId, release, dist, url): Promise<UrlArtifact | undefined> {
      const [row] = await newest(
        and(eq(artifactBundleFiles.projectId, projectId), eq(artifactBundleFiles.release, release), sameDist(dist), eq(artifactBundleFiles.url, url)) as SQL,
        1,
      );
      if (!row) return undefined;
      return { type: row.file.type as ArtifactType, file: artifactOf(row.file), sourceMapHeader: row.file.sourceMap };
    },
    async hasRelease(projectId, release, dist) {
      const [row] = await deps.db
        .select({ id: artifactBundles.id })
        .from(artifactBundles)
        .where(
          and(
            eq(artifactBundles.projectId, projectId),
            eq(artifactBundles.release, release),
            dist === null ? isNull(artifactBundles.dist) : eq(artifactBundles.dist, dist),
          ),
        )
        .limit(1);
      return Boolean(row);
    },
  };
}
