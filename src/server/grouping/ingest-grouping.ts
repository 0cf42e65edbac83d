import type { NormalizedOccurrence } from "../ingest/store/occurrence.types";
import { computeGrouping, type Grouping } from "./fingerprint.v1";
import { computeGroupingV2, type SimilarityParts } from "./fingerprint.v2";

/**
 * What ingest groups an event by: v2, plus the v1 fingerprint the same event would have had. The
 * batch statement looks both up (issue_fingerprints, then issues.fingerprint) and sends the event
 * to the issue either names, so an issue made by v1 keeps receiving its events after the switch;
 * only when neither is known does the v2 fingerprint open a new issue. Both are pure functions of
 * the event: no database round trip is added.
 */
export interface IngestGrouping extends Grouping {
  /** The v1 fingerprint, when it differs from the v2 one. */
  legacyFingerprint?: string | null;
  parts?: SimilarityParts;
}

export function groupForIngest(occ: NormalizedOccurrence): IngestGrouping {
  const current = computeGroupingV2(occ);
  const legacy = computeGrouping(occ).fingerprint;
  return { ...current, legacyFingerprint: legacy === current.fingerprint ? null : legacy };
}
