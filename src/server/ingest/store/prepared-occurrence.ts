import { toEnvironmentBucket } from "../../../shared/environments";
import { issueIdFor } from "./issue-id";
import { severityForLevel } from "../../issues/issue-state";
import { userKeyOf, type PendingOccurrence } from "./pending-occurrence";
import { storableJson, withoutLoneSurrogateEscapes } from "./json-escapes";
import { isTwoByte, oneByteJson } from "./one-byte-text";
import { issueLocation } from "../../grouping/issue-title";
import { minuteOf } from "./minute-count-buffer";
import { indexedText, indexedTextOrNull } from "./indexed-text";
import { occurrenceTags } from "./occurrence-tags";

/**
 * One event turned into what the batch statement needs, as soon as it arrives. The batch writer
 * prepares each event while the previous batch is committing, so building a batch is only joining
 * strings: the time between one commit and the next stays short (see batch-writer.ts).
 */
export interface PreparedOccurrence {
  /** project + event id: a batch holding the same event twice stores it once. */
  eventKey: string;
  issueId: string;
  /** The issue's row should this event be its first (same for every event of the issue). */
  issue: Record<string, unknown>;
  /**
   * The occurrence row as a JSON object text, without its `document_index` (known per batch), its
   * U+0000 and lone-surrogate escapes already replaced (see json-escapes.ts).
   */
  rowJson: string;
  /** The stored event document (JSON text, lone-surrogate escapes replaced; U+0000 escapes kept as sent). */
  document: string;
  /** Whether the document holds characters beyond Latin-1 (one-byte-text.ts): batches send those apart. */
  documentIsTwoByte: boolean;
  /** What the tags breakdown counts for this event, summed once the event is stored. */
  tags: Record<string, string>;
  /** The minute it counts in for the spike rules, summed once the event is stored. */
  minute: string;
  organizationId: string;
  projectId: string;
  /** Debug ids of frames whose bundle is not uploaded yet, and the (minified) fingerprint the event was grouped by. */
  awaitingMaps?: { fingerprint: string; eventId: string; debugIds: string[] };
}

export function prepareOccurrence(item: PendingOccurrence): PreparedOccurrence {
  const occ = item.occurrence;
  const issueId = issueIdFor(item.projectId, item.grouping.fingerprint);
  const thrown = occ.exceptions.at(-1);
  const userKey = userKeyOf(occ);
  // Columns under an index are capped in bytes (indexed-text.ts); event_id and the fingerprints
  // are ids and hex digests already, and the other texts have no index.
  const row = {
    organization_id: item.organizationId,
    project_id: item.projectId,
    issue_id: issueId,
    event_id: occ.eventId,
    timestamp: occ.timestamp.toISOString(),
    received_at: item.receivedAt.toISOString(),
    level: occ.level,
    platform: occ.platform,
    environment: occ.environment,
    environment_bucket: toEnvironmentBucket(occ.environment),
    release: occ.release,
    name: thrown?.type ?? null,
    message: occ.message ?? thrown?.value ?? null,
    user_key: userKey === null ? null : indexedText(userKey),
    fingerprint: item.grouping.fingerprint,
    legacy_fingerprint: item.grouping.legacyFingerprint ?? null,
    // Only when there is something to count: most events scrub nothing and carry no extra key.
    ...(item.scrubbed ? { scrubbed: item.scrubbed } : {}),
  };
  // `location`: the crashing frame, shown beside the culprit (which the SDK or the transaction may name).
  const document = withoutLoneSurrogateEscapes(
    JSON.stringify({ ...occ, location: issueLocation(occ), grouping: { components: item.grouping.components, version: item.grouping.version } }),
  );
  return {
    eventKey: `${item.projectId}:${occ.eventId}`,
    issueId,
    issue: {
      id: issueId,
      organization_id: item.organizationId,
      project_id: item.projectId,
      fingerprint: item.grouping.fingerprint,
      grouping_version: item.grouping.version,
      title: item.grouping.title,
      culprit: item.grouping.culprit,
      level: occ.level,
      platform: occ.platform,
      severity: severityForLevel(occ.level),
      // What issue_fingerprints records for a fingerprint seen for the first time. The array goes
      // into the batch's JSON as it is: json_to_recordset hands a text column its JSON text.
      components: item.grouping.components,
      exception_type: indexedTextOrNull(item.grouping.parts?.exceptionType ?? null),
      // `path|function` of two capped parts: up to 1,537 UTF-16 units, too long for an index entry in CJK.
      crash_frame: indexedTextOrNull(item.grouping.parts?.crashFrame ?? null),
      message_template: item.grouping.parts?.messageTemplate ?? null,
    },
    rowJson: oneByteJson(storableJson(JSON.stringify(row))),
    document,
    documentIsTwoByte: isTwoByte(document),
    tags: occurrenceTags(occ),
    minute: minuteOf(item.receivedAt),
    organizationId: item.organizationId,
    projectId: item.projectId,
  };
}
