import type { NormalizedOccurrence } from "../../shared/occurrence.types";
import type { Logger } from "../logger";
import { cachedSourceMapStore } from "./cached-source-map-store";
import { IndexedMapLookup } from "./indexed-map-lookup";
import { SOURCE_MAP_LIMITS } from "./source-map-limits";
import type { MapIndexer } from "./map-indexing";
import type { SourceMapStore } from "./source-map-store";
import { SourceMapWorkers, SymbolicatorUnavailableError } from "./source-map-workers";
import { symbolicate } from "./symbolicate";

/**
 * What ingest asks of source maps: an event's JavaScript frames mapped before it is grouped; and
 * what the upload side asks: an uploaded map's index, built on the same worker (map-indexing.ts).
 */
export interface EventSymbolicator extends MapIndexer {
  symbolicate(occurrence: NormalizedOccurrence, projectId: string): Promise<NormalizedOccurrence>;
  /** Bundles of these projects were assembled or deleted here: forget what the store answered for them. */
  mapsChanged(projectIds: readonly string[]): void;
  close(): Promise<void>;
}

/**
 * The project's uploaded maps (`store`, its answers reused for a few seconds: cached-source-map-store.ts) read from their indexes, or by the map worker for a map
 * without one (indexed-map-lookup.ts). A symbolicator that cannot take
 * the event (its queue full, closing) leaves the event as sent: it is stored and grouped on its
 * minified frames rather than refused. A store that fails (the database down) fails the request,
 * which ingest answers 503 as for any storage outage.
 */
export function createEventSymbolicator(store: SourceMapStore, logger: Logger, workers = new SourceMapWorkers(logger)): EventSymbolicator {
  const maps = new IndexedMapLookup(workers, SOURCE_MAP_LIMITS, logger);
  const answers = cachedSourceMapStore(store);
  return {
    async symbolicate(occurrence, projectId) {
      try {
        return await symbolicate(occurrence, projectId, answers, maps);
      } catch (error) {
        if (!(error instanceof SymbolicatorUnavailableError)) throw error;
        logger.warn("event stored unsymbolicated", { projectId, eventId: occurrence.eventId, reason: error.message });
        return occurrence;
      }
    },
    index: (key, load) => workers.index(key, load),
    mapsChanged: (projectIds) => answers.forget(projectIds),
    close: () => workers.close(),
  };
}
