import type { BatchWriter } from "../ingest/store/batch-writer";
import { storableJson } from "../ingest/store/json-escapes";
import { analyticsEventRows } from "./analytics-event.queries";

/** A product-analytics record as the native SDK sends it (`POST /api/v1/events`). */
export interface AnalyticsEventInput {
  name: string;
  properties?: Record<string, unknown>;
}

/** The project an event belongs to (the ingest key's project). */
export interface AnalyticsEventProject {
  organizationId: string;
  projectId: string;
}

/**
 * Stores one analytics event through the ingest batch writer, in the same batches, queue limit and
 * failure policy as occurrences. Resolves once it is committed; rejects with StorageUnavailableError
 * (503 with Retry-After) when the queue is full, ingest is shutting down or the database failed.
 */
export function recordAnalyticsEvent(writer: Pick<BatchWriter, "writeRow">, project: AnalyticsEventProject, input: AnalyticsEventInput, receivedAt: Date) {
  return writer.writeRow(analyticsEventRows, analyticsEventRow(project, input, receivedAt));
}

/**
 * The row as JSON text, built as the event arrives. `created_at` is the arrival time rather than
 * the commit's: events committed together keep the order they came in. Text PostgreSQL refuses
 * (U+0000, lone surrogates) becomes U+FFFD, or one event would fail every event of its batch.
 */
export function analyticsEventRow(project: AnalyticsEventProject, input: AnalyticsEventInput, receivedAt: Date): string {
  const row = {
    organization_id: project.organizationId,
    project_id: project.projectId,
    name: input.name,
    properties: input.properties ?? {},
    created_at: receivedAt.toISOString(),
  };
  return storableJson(JSON.stringify(row));
}
