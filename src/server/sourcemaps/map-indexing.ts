import type { AppServices } from "../context";
import type { StoredMap } from "./artifact-assembly";
import { artifactStorage } from "./artifact-storage";
import { hasIndex, insertIndexParts } from "./artifact.queries";
import { readArtifact } from "./database-source-map-store";
import type { MapIndexBuild } from "./map-index-build";
import type { MapInput } from "./parsed-source-map";
import { SOURCE_MAP_LIMITS } from "./source-map-limits";

/** What builds an index from a map's bytes: the symbolicator's worker (SourceMapWorkers.index). */
export interface MapIndexer {
  index(key: string, load: () => Promise<MapInput>): Promise<MapIndexBuild>;
}

/**
 * Builds and stores the index (map-index-format.ts) of each of the organization's `maps` that has
 * none, one map at a time on the worker. A map that cannot be indexed (invalid, over a cap, too
 * irregular) is left without one: lookups parse it whole on the worker, as before indexes.
 * Returns how many maps were indexed.
 */
export async function indexStoredMaps(
  deps: Pick<AppServices, "db" | "env" | "logger">,
  indexer: MapIndexer,
  organizationId: string,
  maps: readonly StoredMap[],
): Promise<number> {
  const storage = artifactStorage(deps.env);
  let indexed = 0;
  for (const map of maps) {
    if (map.size > SOURCE_MAP_LIMITS.maxMapBytes || (await hasIndex(deps.db, organizationId, map.sha1))) continue;
    const started = Date.now();
    const build = await indexer.index(map.sha1, async () => ({ kind: "json", bytes: await readArtifact(deps.db, storage, { organizationId, ...map }) }));
    if (build.status === "unindexed") {
      deps.logger.info("source map not indexed; events read it whole", { organizationId, sha1: map.sha1, reason: build.reason });
      continue;
    }
    await insertIndexParts(deps.db, organizationId, map.sha1, build.parts);
    indexed++;
    deps.logger.info("source map indexed", { organizationId, sha1: map.sha1, parts: build.parts.length, ms: Date.now() - started });
  }
  return indexed;
}
