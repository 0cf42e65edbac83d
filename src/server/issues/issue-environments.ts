import { ENVIRONMENTS, toEnvironmentBucket, type EnvironmentBucket } from "../../shared/environments";
import type { Db } from "../db/client";
import { selectEnvironmentSets } from "./issue.queries";

/**
 * The environments filter speaks buckets (PRODUCTION, STAGING, DEVELOPMENT) while issues keep the
 * names SDKs sent. The project's few distinct names are mapped with ingest's own
 * toEnvironmentBucket, and the list then filters on `environments && names` — the same issues as
 * "has a rollup row in one of the buckets", without probing the rollups once per issue (that
 * cost ~100 ms for the count at 20,000 issues). Undefined: no filter.
 */
export async function environmentNamesFor(db: Db, organizationId: string, projectId: string, buckets: EnvironmentBucket[] | undefined) {
  const wanted = new Set(buckets ?? []);
  if (wanted.size === 0 || wanted.size === ENVIRONMENTS.length) return undefined;
  const sets = await selectEnvironmentSets(db, organizationId, projectId);
  const names = new Set(sets.flatMap((row) => row.environments));
  return [...names].filter((name) => wanted.has(toEnvironmentBucket(name)));
}

/**
 * Whether the buckets asked for include the one an SDK event without an environment counts in
 * (PRODUCTION, the SDKs' default). Such events add no name to their issue's `environments`, so the
 * filter matches issues without any name for that bucket too — the same issues the rollups count.
 */
export function bucketsIncludeUnnamed(buckets: EnvironmentBucket[] | undefined): boolean {
  return (buckets ?? []).includes(toEnvironmentBucket(null));
}
