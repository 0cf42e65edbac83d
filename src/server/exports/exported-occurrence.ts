import { exceptionTree } from "../../shared/exception-tree";
import type { ExportedFrame, ExportedOccurrence } from "../../shared/export.views";
import type { NormalizedOccurrence } from "../../shared/occurrence.types";
import { readOccurrence, type FrameView } from "../../shared/occurrence-view";
import { occurrenceTags } from "../ingest/store/occurrence-tags";
import type { LatestOccurrenceRow } from "./issue-export.queries";

/** A chatty SDK keeps 100 breadcrumbs; the newest 30 tell what led to the error. */
export const MAX_EXPORT_BREADCRUMBS = 30;

/** A frame as the exception screen shows it, less its local variables (size, and the likeliest place for secrets). */
function exportedFrame(frame: FrameView): ExportedFrame {
  const { vars: _vars, ...shown } = frame;
  return shown;
}

/**
 * One stored occurrence as the export carries it: read through the exception screen's own
 * reading (shared/occurrence-view.ts) and ordered as it shows the chain (shared/exception-tree.ts),
 * with the tags its screen lists (occurrenceTags).
 */
export function toExportedOccurrence(row: LatestOccurrenceRow): ExportedOccurrence {
  const data = (row.data ?? {}) as Record<string, unknown>;
  const view = readOccurrence(data);
  const crumbs = view.breadcrumbs.slice(-MAX_EXPORT_BREADCRUMBS);
  return {
    id: row.id,
    eventId: row.eventId,
    timestamp: row.timestamp,
    receivedAt: row.receivedAt,
    environment: row.environment,
    release: row.release,
    level: row.level,
    platform: row.platform,
    message: row.message ?? view.message,
    exceptions: exceptionTree(view.exceptions).map(({ exception }) => ({
      type: exception.type,
      value: exception.value,
      module: exception.module,
      mechanism: exception.mechanism
        ? { type: exception.mechanism.type, handled: exception.mechanism.handled, synthetic: exception.mechanism.synthetic }
        : null,
      frames: exception.frames.map(exportedFrame),
    })),
    stacktrace: view.stacktrace.map(exportedFrame),
    request: view.request
      ? { url: view.request.url, method: view.request.method, query: view.request.query, headers: Object.fromEntries(view.request.headers) }
      : null,
    user: view.user ? { id: view.user.id, email: view.user.email, username: view.user.username, ip: view.user.ip } : null,
    tags: Object.entries(occurrenceTags(data as Partial<NormalizedOccurrence>)).map(([key, value]) => ({ key, value })),
    breadcrumbs: crumbs.map(({ data: _data, ...crumb }) => crumb),
    breadcrumbsOmitted: view.breadcrumbs.length - crumbs.length,
  };
}
