import { computeGrouping } from "../../src/server/grouping/fingerprint.v1";
import { normalizeSentryEvent } from "../../src/server/ingest/normalize/event.normalizer";
import { prepareOccurrence, type PreparedOccurrence } from "../../src/server/ingest/store/prepared-occurrence";

let lastEventId = 0;

/**
 * An error event of `project` whose message names its issue (v1 grouping masks digits, so name
 * issues with letters), prepared as ingest prepares it for the batch statement. Event ids count up
 * per test file unless `fields` sets one; `fields` adds or overrides SDK event fields.
 */
export function preparedMessageEvent(
  project: { organizationId: string; projectId: string },
  message: string,
  fields: Record<string, unknown> = {},
): PreparedOccurrence {
  lastEventId += 1;
  const occurrence = normalizeSentryEvent({ event_id: lastEventId.toString(16).padStart(32, "0"), message, level: "error", ...fields });
  return prepareOccurrence({
    organizationId: project.organizationId,
    projectId: project.projectId,
    occurrence,
    grouping: computeGrouping(occurrence),
    receivedAt: new Date(),
  });
}
