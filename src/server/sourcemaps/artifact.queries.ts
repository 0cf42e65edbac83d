import { and, desc, eq, inArray, isNull, notExists, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { artifactAssemblies, artifactBlobs, artifactBundleFiles, artifactBundles, artifactChunks, sourceMapIndexParts } from "../db/schema/index";

// Every query takes the organization id (and the project id where rows belong to one).

export async function insertChunk(db: Db, organizationId: string, sha1: string, size: number, data: Uint8Array | null) {
  await db.insert(artifactChunks).values({ organizationId, sha1, size, data }).onConflictDoNothing();
}

export async function selectExistingChunks(db: Db, organizationId: string, sha1s: readonly string[]): Promise<Set<string>> {
  if (sha1s.length === 0) return new Set();
  const rows = await db
    .select({ sha1: artifactChunks.sha1 })
    .from(artifactChunks)
    .where(and(eq(artifactChunks.organizationId, organizationId), inArray(artifactChunks.sha1, [...sha1s])));
  return new Set(rows.map((row) => row.sha1));
}

export async function selectChunks(db: Db, organizationId: string, sha1s: readonly string[]) {
  return db
    .select()
    .from(artifactChunks)
    .where(and(eq(artifactChunks.organizationId, organizationId), inArray(artifactChunks.sha1, [...sha1s])));
}

export async function deleteChunks(db: Db, organizationId: string, sha1s: readonly string[]): Promise<string[]> {
  if (sha1s.length === 0) return [];
  const rows = await db
    .delete(artifactChunks)
    .where(and(eq(artifactChunks.organizationId, organizationId), inArray(artifactChunks.sha1, [...sha1s])))
    .returning({ sha1: artifactChunks.sha1 });
  return rows.map((row) => row.sha1);
}

/** Bytes the organization keeps in chunks and bundle files (the per-organization cap). */
export async function selectOrganizationBytes(db: Db, organizationId: string): Promise<number> {
  const [row] = await executeRows<{ bytes: string | number | null }>(
    db,
    sql`select (select coalesce(sum(size), 0) from artifact_chunks where organization_id = ${organizationId})
             + (select coalesce(sum(size), 0) from artifact_blobs where organization_id = ${organizationId}) as bytes`,
  );
  return Number(row?.bytes ?? 0);
}

export async function selectAssembly(db: Db, organizationId: string, checksum: string) {
  const [row] = await db
    .select()
    .from(artifactAssemblies)
    .where(and(eq(artifactAssemblies.organizationId, organizationId), eq(artifactAssemblies.checksum, checksum)));
  return row ?? null;
}

export type AssemblyRow = NonNullable<Awaited<ReturnType<typeof selectAssembly>>>;

/** Records a new assembly; false when another request recorded one for the checksum first. */
export async function insertAssembly(db: Pick<Db, "insert">, row: typeof artifactAssemblies.$inferInsert): Promise<boolean> {
  const inserted = await db.insert(artifactAssemblies).values(row).onConflictDoNothing().returning({ checksum: artifactAssemblies.checksum });
  return inserted.length > 0;
}

export async function deleteAssembly(db: Db, organizationId: string, checksum: string) {
  await db.delete(artifactAssemblies).where(and(eq(artifactAssemblies.organizationId, organizationId), eq(artifactAssemblies.checksum, checksum)));
}

export async function setAssemblyState(db: Pick<Db, "update">, organizationId: string, checksum: string, state: string, detail: string | null = null) {
  await db
    .update(artifactAssemblies)
    .set({ state, detail, updatedAt: new Date() })
    .where(and(eq(artifactAssemblies.organizationId, organizationId), eq(artifactAssemblies.checksum, checksum)));
}

/** Stores a bundle file's row; true when this call created it (the bytes were new to the organization). */
export async function insertBlob(db: Db, organizationId: string, sha1: string, size: number, data: Uint8Array | null): Promise<boolean> {
  const rows = await db.insert(artifactBlobs).values({ organizationId, sha1, size, data }).onConflictDoNothing().returning({ sha1: artifactBlobs.sha1 });
  return rows.length > 0;
}

/**
 * `length` bytes of a blob from `offset`, and whether its bytes are on disk instead (ARTIFACT_DIR);
 * null when the blob is gone. Maps are read in slices (database-source-map-store.ts).
 */
export async function selectBlobSlice(db: Db, organizationId: string, sha1: string, offset: number, length: number) {
  const [row] = await db
    .select({
      part: sql<Uint8Array | null>`substring(${artifactBlobs.data} from ${offset + 1} for ${length})`,
      onDisk: sql<boolean>`${artifactBlobs.data} is null`,
    })
    .from(artifactBlobs)
    .where(and(eq(artifactBlobs.organizationId, organizationId), eq(artifactBlobs.sha1, sha1)));
  return row ?? null;
}

/** Deletes the organization's blobs among `sha1s` that no bundle file names any more; returns them. */
export async function deleteUnreferencedBlobs(db: Pick<Db, "delete">, organizationId: string, sha1s: readonly string[]): Promise<string[]> {
  if (sha1s.length === 0) return [];
  const rows = await db
    .delete(artifactBlobs)
    .where(
      and(
        eq(artifactBlobs.organizationId, organizationId),
        inArray(artifactBlobs.sha1, [...sha1s]),
        notExists(sql`(select 1 from ${artifactBundleFiles} f where f.organization_id = ${artifactBlobs.organizationId} and f.sha1 = ${artifactBlobs.sha1})`),
      ),
    )
    .returning({ sha1: artifactBlobs.sha1 });
  return rows.map((row) => row.sha1);
}

/** The stored parts among `parts` of the index of the organization's map `sha1`, by number. */
export async function selectIndexParts(db: Db, organizationId: string, sha1: string, parts: readonly number[]): Promise<Map<number, Uint8Array>> {
  if (parts.length === 0) return new Map();
  const rows = await db
    .select({ part: sourceMapIndexParts.part, data: sourceMapIndexParts.data })
    .from(sourceMapIndexParts)
    .where(and(eq(sourceMapIndexParts.organizationId, organizationId), eq(sourceMapIndexParts.sha1, sha1), inArray(sourceMapIndexParts.part, [...parts])));
  return new Map(rows.map((row) => [row.part, row.data]));
}

/** Whether the map has a complete index (its header, written last). */
export async function hasIndex(db: Db, organizationId: string, sha1: string): Promise<boolean> {
  return (await selectIndexParts(db, organizationId, sha1, [0])).has(0);
}

/** Index parts per insert: a few hundred kilobytes a statement. */
const INDEX_PARTS_PER_INSERT = 100;

/**
 * Stores a map's index, part 0 last so that a reader never finds a header without its parts; a
 * second writer of the same index (the same map assembled twice at once) changes nothing.
 */
export async function insertIndexParts(db: Db, organizationId: string, sha1: string, parts: readonly Uint8Array[]) {
  const rows = parts.map((data, part) => ({ organizationId, sha1, part, data }));
  const [header, ...rest] = rows;
  for (let start = 0; start < rest.length; start += INDEX_PARTS_PER_INSERT) {
    await db
      .insert(sourceMapIndexParts)
      .values(rest.slice(start, start + INDEX_PARTS_PER_INSERT))
      .onConflictDoNothing();
  }
  await db.insert(sourceMapIndexParts).values(header).onConflictDoNothing();
}

export type BundleFileRow = typeof artifactBundleFiles.$inferInsert;

/** One bundle row per project with its file rows, in the caller's transaction. */
export async function insertBundle(
  tx: Pick<Db, "insert">,
  bundle: typeof artifactBundles.$inferInsert,
  files: Omit<BundleFileRow, "bundleId" | "organizationId" | "projectId" | "release" | "dist">[],
) {
  const [row] = await tx.insert(artifactBundles).values(bundle).returning({ id: artifactBundles.id });
  // Batches keep each statement's parameters well under PostgreSQL's 65,535.
  for (let start = 0; start < files.length; start += 500) {
    await tx.insert(artifactBundleFiles).values(
      files.slice(start, start + 500).map((file) => ({
        ...file,
        bundleId: row.id,
        organizationId: bundle.organizationId,
        projectId: bundle.projectId,
        release: bundle.release ?? null,
        dist: bundle.dist ?? null,
      })),
    );
  }
  return row.id;
}

export function selectBundlesByChecksum(db: Db, organizationId: string, checksum: string) {
  return db
    .select()
    .from(artifactBundles)
    .where(and(eq(artifactBundles.organizationId, organizationId), eq(artifactBundles.checksum, checksum)))
    .orderBy(desc(artifactBundles.createdAt));
}

export function selectBundleFiles(db: Db, organizationId: string, bundleId: string) {
  return db
    .select()
    .from(artifactBundleFiles)
    .where(and(eq(artifactBundleFiles.organizationId, organizationId), eq(artifactBundleFiles.bundleId, bundleId)));
}

const distIs = (dist: string | null): SQL => (dist === null ? isNull(artifactBundles.dist) : eq(artifactBundles.dist, dist)) as SQL;

export function selectProjectBundles(db: Db, organizationId: string, projectId: string, filter: { release?: string; dist?: string | null }, limit: number) {
  const conditions = [eq(artifactBundles.organizationId, organizationId), eq(artifactBundles.projectId, projectId)];
  if (filter.release !== undefined) conditions.push(eq(artifactBundles.release, filter.release));
  if (filter.dist !== undefined) conditions.push(distIs(filter.dist));
  return db
    .select()
    .from(artifactBundles)
    .where(and(...conditions))
    .orderBy(desc(artifactBundles.createdAt), desc(artifactBundles.id))
    .limit(limit);
}

/** Deletes bundles of the project (their file rows go by cascade); returns what each held. */
export async function deleteProjectBundles(tx: Db, organizationId: string, projectId: string, where: SQL) {
  const bundles = await tx
    .delete(artifactBundles)
    .where(and(eq(artifactBundles.organizationId, organizationId), eq(artifactBundles.projectId, projectId), where))
    .returning({ id: artifactBundles.id, checksum: artifactBundles.checksum });
  return bundles;
}

export { distIs };
