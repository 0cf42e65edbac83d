import { and, desc, eq, inArray, isNull, type SQL } from "drizzle-orm";
import type { AppServices } from "../context";
import type { Db } from "../db/client";
import { artifactBundleFiles, artifactBundles } from "../db/schema/index";
import { normalizeDebugId } from "./artifact-bundle-reader";
import { artifactStorage, type ArtifactStorage } from "./artifact-storage";
import { insertIndexParts, selectBlobSlice, selectIndexParts } from "./artifact.queries";
import { ArtifactGoneError, type ArtifactType, type DebugIdArtifacts, type SourceMapStore, type StoredArtifact, type UrlArtifact } from "./source-map-store";

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
    read: () => readArtifact(deps.db, storage, row),
    ...(row.type === "source_map"
      ? {
          index: {
            read: (parts) => selectIndexParts(deps.db, row.organizationId, row.sha1, parts),
            save: (parts) => insertIndexParts(deps.db, row.organizationId, row.sha1, parts),
          },
        }
      : {}),
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

/** Bytes a map is read in from the database: decoding a 20 MB value at once held the event loop for ~100 ms. */
const READ_SLICE_BYTES = 1024 * 1024;

/**
 * A stored file's bytes, fresh (the symbolicator moves them to its worker): from the database in
 * slices with a turn of the event loop between them, or from ARTIFACT_DIR (read off the main thread).
 */
export async function readArtifact(db: Db, storage: ArtifactStorage, row: Pick<FileRow, "organizationId" | "sha1" | "size">): Promise<Uint8Array> {
  const bytes = new Uint8Array(row.size);
  let offset = 0;
  do {
    const slice = await selectBlobSlice(db, row.organizationId, row.sha1, offset, READ_SLICE_BYTES);
    if (!slice) throw new ArtifactGoneError(`artifact ${row.sha1} is gone`);
    if (slice.onDisk) {
      return storage.read("blobs", row.organizationId, row.sha1, null).catch((error: NodeJS.ErrnoException) => {
        throw error.code === "ENOENT" ? new ArtifactGoneError(`artifact ${row.sha1} is gone`) : error;
      });
    }
    const part = slice.part ?? new Uint8Array(0);
    if (offset + part.length > row.size) throw new Error(`artifact ${row.sha1} is larger than recorded`);
    bytes.set(part, offset);
    offset += READ_SLICE_BYTES;
    // PGlite answers in this thread: let other requests in between slices.
    await new Promise((resolve) => setImmediate(resolve));
  } while (offset < row.size);
  return bytes;
}
