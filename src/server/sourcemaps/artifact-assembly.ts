import { createHash } from "node:crypto";
import type { AppServices } from "../context";
import { ARTIFACT_LIMITS, formatMiB } from "./artifact-limits";
import { BundleError, readArtifactBundle, type BundleFile, type Limits } from "./artifact-bundle-reader";
import { artifactStorage } from "./artifact-storage";
import { indexStoredMaps, type MapIndexer } from "./map-indexing";
import {
  deleteChunks,
  deleteUnreferencedBlobs,
  insertBlob,
  insertBundle,
  selectAssembly,
  selectChunks,
  selectOrganizationBytes,
  setAssemblyState,
} from "./artifact.queries";

export type AssemblyDeps = Pick<AppServices, "db" | "env" | "logger"> & {
  /** Builds the maps' indexes (map-indexing.ts) before the bundle is `ok`; none: the maps are stored unindexed. */
  indexer?: MapIndexer;
};

/** What an assembled bundle brought: the projects it was indexed for and the debug ids of its files. */
export interface AssembledBundle {
  organizationId: string;
  projectIds: string[];
  debugIds: string[];
}

export interface StoredMap {
  sha1: string;
  size: number;
}

/** The states sentry-cli knows (`ChunkedFileState`). */
export type AssemblyState = "not_found" | "created" | "assembling" | "ok" | "error";

/**
 * The job "sourcemaps.assemble": turns the chunks of one assemble request into a stored, indexed
 * bundle, off the request path, its maps indexed before it is `ok` (so `sentry-cli … --wait`
 * returns once events read them cheaply; a map that cannot be indexed is stored all the same).
 * Idempotent (a runner that died leaves the job to be claimed again): a finished assembly is left
 * alone, and the bundle rows and the `ok` state are one transaction.
 * A bundle that breaks a rule ends in `error` with the rule as `detail`, nothing of it stored.
 */
export async function assembleArtifactBundle(
  deps: AssemblyDeps,
  organizationId: string,
  checksum: string,
  limits: Limits = ARTIFACT_LIMITS,
): Promise<AssembledBundle | null> {
  const assembly = await selectAssembly(deps.db, organizationId, checksum);
  if (!assembly || (assembly.state !== "created" && assembly.state !== "assembling")) return null;
  let assembled: AssembledBundle | null = null;
  await setAssemblyState(deps.db, organizationId, checksum, "assembling");
  const storage = artifactStorage(deps.env);
  const chunkIds = assembly.chunks.split(",").filter(Boolean);
  const createdBlobs: string[] = [];
  try {
    const bundle = await concatChunks(deps, organizationId, chunkIds, checksum, limits);
    const stored: (BundleFile & { sha1: string; size: number })[] = [];
    let budget = limits.maxOrganizationBytes - (await selectOrganizationBytes(deps.db, organizationId));
    const manifest = await readArtifactBundle(
      bundle,
      async (file, bytes, sha1) => {
        budget -= bytes.length;
        if (budget < 0) throw new BundleError(`The organization's uploads would pass ${formatMiB(limits.maxOrganizationBytes)}; delete old bundles first`);
        const data = await storage.write("blobs", organizationId, sha1, bytes);
        if (await insertBlob(deps.db, organizationId, sha1, bytes.length, data)) createdBlobs.push(sha1);
        stored.push({ ...file, sha1, size: bytes.length });
      },
      limits,
    );
    const maps = new Map(stored.filter((file) => file.type === "source_map").map((file) => [file.sha1, { sha1: file.sha1, size: file.size }]));
    if (deps.indexer) {
      // The bundle is usable without indexes (its maps are then parsed whole): a failure here is logged, not fatal.
      await indexStoredMaps(deps, deps.indexer, organizationId, [...maps.values()]).catch((error: unknown) =>
        deps.logger.warn("source maps not indexed", { organizationId, checksum, err: error }),
      );
    }
    const release = assembly.release ?? manifest.release;
    const dist = assembly.release ? assembly.dist : (assembly.dist ?? manifest.dist);
    const files = stored.map((file) => ({
      type: file.type,
      url: file.url,
      debugId: file.debugId,
      sourceMap: file.sourceMap,
      sha1: file.sha1,
      size: file.size,
    }));
    await deps.db.transaction(async (tx) => {
      for (const projectId of assembly.projectIds.split(",").filter(Boolean)) {
        await insertBundle(
          tx,
          { organizationId, projectId, checksum, bundleId: manifest.bundleId, release, dist, fileCount: files.length, size: bundle.length },
          files,
        );
      }
      await setAssemblyState(tx, organizationId, checksum, "ok");
    });
    const debugIds = new Set(files.flatMap((file) => (file.debugId ? [file.debugId] : [])));
    assembled = { organizationId, projectIds: assembly.projectIds.split(",").filter(Boolean), debugIds: [...debugIds] };
  } catch (error) {
    if (!(error instanceof BundleError)) {
      deps.logger.error("artifact bundle assembly failed", { organizationId, checksum, err: error });
    }
    const detail = error instanceof BundleError ? error.message : "The server could not assemble the bundle; upload it again";
    // Nothing of a refused bundle stays: bytes it brought that no other bundle holds go too.
    const orphans = await deleteUnreferencedBlobs(deps.db, organizationId, createdBlobs);
    await storage.remove("blobs", organizationId, orphans);
    await setAssemblyState(deps.db, organizationId, checksum, "error", detail);
  }
  // The chunks served their one bundle (a re-upload of the same bundle is answered from its state).
  const removed = await deleteChunks(deps.db, organizationId, chunkIds);
  await storage.remove("chunks", organizationId, removed);
  return assembled;
}

async function concatChunks(deps: AssemblyDeps, organizationId: string, chunkIds: string[], checksum: string, limits: Limits): Promise<Buffer> {
  const rows = new Map((await selectChunks(deps.db, organizationId, chunkIds)).map((row) => [row.sha1, row]));
  const storage = artifactStorage(deps.env);
  let total = 0;
  for (const id of chunkIds) {
    const row = rows.get(id);
    if (!row) throw new BundleError(`Chunk ${id} is missing; upload the bundle again`);
    total += row.size;
  }
  if (total > limits.maxBundleSize) throw new BundleError(`The bundle is ${formatMiB(total)}; bundles are at most ${formatMiB(limits.maxBundleSize)}`);
  const parts: Uint8Array[] = [];
  for (const id of chunkIds) {
    const row = rows.get(id)!;
    parts.push(await storage.read("chunks", organizationId, id, row.data));
  }
  const bundle = Buffer.concat(parts, total);
  if (createHash("sha1").update(bundle).digest("hex") !== checksum) throw new BundleError("The assembled bundle does not match its checksum");
  return bundle;
}
