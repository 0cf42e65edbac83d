import type { NormalizedOccurrence } from "../../shared/occurrence.types";
import { fingerprintV1, type Grouping } from "./fingerprint.v1";
import { computeGroupingV2, type SimilarityParts } from "./fingerprint.v2";

/**
 * What ingest groups an event by: v2, plus (in a project that has v1 issues) the v1 fingerprint
 * the same event would have had. The batch statement looks both up in issue_fingerprints and sends
 * the event to the issue either names, so an issue made by v1 keeps receiving its events after the
 * switch; only when neither is known does the v2 fingerprint open a new issue. Both are pure
 * functions of the event: no database round trip is added.
 */
export interface IngestGrouping extends Grouping {
  /** The v1 fingerprint, when it differs from the v2 one. */
  legacyFingerprint?: string | null;
  parts?: SimilarityParts;
}

/** `legacy: false` (a project without v1 issues) skips the v1 fingerprint: nothing could be linked by it. */
export function groupForIngest(occ: NormalizedOccurrence, { legacy: withLegacy = true } = {}): IngestGrouping {
  // computeGroupingV2 returns a fresh object: completed in place rather than copied (every event passes here).
  const grouping: IngestGrouping = computeGroupingV2(occ);
  if (!withLegacy) grouping.legacyFingerprint = null;
  else {
    const legacy = fingerprintV1(occ);
    grouping.legacyFingerprint = legacy === grouping.fingerprint ? null : legacy;
  }
  return grouping;
}
