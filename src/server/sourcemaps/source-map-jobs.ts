import type { AppServices } from "../context";
import type { KeyRevocations } from "../ingest/project-key.cache";
import type { JobHandlers } from "../jobs/job-registry";
import { assembleArtifactBundle } from "./artifact-assembly";
import type { EventSymbolicator } from "./event-symbolicator";
import type { SourceMapWaits } from "./source-map-waits";

export interface SourceMapJobDeps extends Pick<AppServices, "db" | "env" | "logger"> {
  /** Ingest's key cache: told at once that the projects have maps now. */
  keys: KeyRevocations;
  symbolicator: EventSymbolicator;
  waits: SourceMapWaits;
}

/**
 * The source-map job: assemble an uploaded bundle off the request path and index its maps; once it
 * is stored, the projects' next JavaScript events are symbolicated before grouping, and the events
 * that waited for its debug ids are linked to the issues they opened (source-map-waits.ts).
 */
export function sourceMapJobHandlers(deps: SourceMapJobDeps): Pick<JobHandlers, "sourcemaps.assemble"> {
  return {
    "sourcemaps.assemble": async ({ organizationId, checksum }) => {
      const assembled = await assembleArtifactBundle({ ...deps, indexer: deps.symbolicator }, organizationId, checksum);
      if (!assembled) return;
      deps.keys.sourceMapsUploaded(assembled.projectIds);
      deps.symbolicator.mapsChanged(assembled.projectIds);
      for (const projectId of assembled.projectIds) {
        // The bundle is stored whatever happens here; a failed link only leaves the first events' issue apart.
        await deps.waits
          .relink(deps.symbolicator, organizationId, projectId, assembled.debugIds)
          .catch((error: unknown) => deps.logger.warn("events waiting for source maps not linked", { organizationId, projectId, err: error }));
      }
    },
  };
}
