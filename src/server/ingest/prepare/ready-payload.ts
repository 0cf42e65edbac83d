import { groupForIngest } from "../../grouping/ingest-grouping";
import { sentryPayloadSteps, type ReadPayloadOptions, type SentryEndpoint, type SentryPayload } from "../sentry/sentry-payload.reader";
import type { NormalizedOccurrence } from "../../../shared/occurrence.types";
import { prepareOccurrence, type PreparedOccurrence } from "../store/prepared-occurrence";
import { hasSymbolicationCandidates } from "../../sourcemaps/symbolication-candidates";
import { debugIdsAwaitingMaps, markedWithoutSourceMaps } from "../../sourcemaps/awaiting-maps";
import { runAtOnce, runInSlices, type Steps } from "./time-slices";
import { readSessionItem, type SessionItem } from "../sessions/session-item";
import { scrubOccurrence } from "../normalize/event-scrubber";
import { DEFAULT_SCRUB_SETTINGS, type ScrubSettings } from "../normalize/scrub-settings";

const DEFAULT_SCRUB: ScrubSettings = { ...DEFAULT_SCRUB_SETTINGS, hashKey: "" };

/** The project an authorised request writes to: all that grouping and preparing need of it. */
export interface PrepareContext {
  organizationId: string;
  projectId: string;
  /** Whether the project has v1 issues (project-key.cache.ts): only then is the v1 fingerprint computed. */
  legacyGrouping?: boolean;
  /**
   * Whether the project has uploaded source maps (project-key.cache.ts): then an event with
   * JavaScript frames to map is left for the main thread, which symbolicates it before grouping.
   */
  sourceMaps?: boolean;
  /**
   * The project's data settings (data-settings/data-settings.cache.ts), applied before grouping;
   * absent (callers without a database: tests, tools), the product defaults apply.
   */
  scrub?: ScrubSettings;
}

/** One SDK request body to turn into storable events, for a project already known. */
export interface PrepareInput {
  endpoint: SentryEndpoint;
  body: Uint8Array;
  /** Also the events' receive time. */
  options: ReadPayloadOptions & { receivedAt: Date };
  context: PrepareContext;
}

/** What the envelope route still reads of an item once its events are prepared. */
export interface ItemSummary {
  type: string;
  skipped: boolean;
  /** Dropped unparsed for its size (EnvelopeItem.oversized). */
  oversized?: boolean;
  /** The parsed payload of a client report (its discard counts); nothing for other items. */
  report?: unknown;
}

/** A request body read, normalised, grouped and prepared for the batch writer. */
export interface ReadyPayload {
  items: ItemSummary[];
  /** Ready for BatchWriter.writePrepared, in item order. */
  events: PreparedOccurrence[];
  /**
   * Events whose JavaScript frames wait for the project's source maps: symbolication reads the
   * database and a map worker, so it is not this pure step's. IngestService.prepare symbolicates,
   * groups and prepares them and hands routes a payload where this is empty.
   */
  awaitingSourceMaps: NormalizedOccurrence[];
  /** What the envelope's `session` and `sessions` items count (release health), for the batch writer. */
  sessions: SessionItem[];
  /** What to answer `{"id": …}` with; null means answer `{}`. */
  responseId: string | null;
  /** The envelope header `dsn`, one of the auth sources (see extractSentryAuth). */
  dsn: string | null;
}

/**
 * Everything ingest does to a request body that needs no database and no shared state: parse,
 * normalise, group, prepare. Pure, so it can run on a worker thread (payload-workers.ts) as well
 * as inline, with the same result. Throws IngestError (400/413) as readSentryPayload does.
 */
export function readyPayload(input: PrepareInput): ReadyPayload {
  return runAtOnce(readyPayloadSteps(input));
}

/**
 * readyPayload on the main thread: in slices (time-slices.ts), so that a large body — twenty
 * 1 MiB events — never holds the event loop while other tenants' requests wait. Rejects as a
 * worker's answer does.
 */
export async function readyPayloadAsync(input: PrepareInput, sliceMs?: number): Promise<ReadyPayload> {
  return runInSlices(readyPayloadSteps(input), sliceMs);
}

/** readyPayload in steps: one per parsed item, normalised event and prepared event. */
function* readyPayloadSteps({ endpoint, body, options, context }: PrepareInput): Steps<ReadyPayload> {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const payload = yield* sentryPayloadSteps(endpoint, bytes, options);
  return yield* readyFromSteps(payload, context, options.receivedAt);
}

/** A payload read before its project was known (the key in the envelope header only), prepared in slices. */
export function readyFromAsync(payload: SentryPayload, context: PrepareContext, receivedAt: Date): Promise<ReadyPayload> {
  return runInSlices(readyFromSteps(payload, context, receivedAt));
}

/** A read payload's events grouped and prepared for the batch writer, and what the route reads of its items; a step per event. */
function* readyFromSteps(payload: SentryPayload, context: PrepareContext, receivedAt: Date): Steps<ReadyPayload> {
  const events: PreparedOccurrence[] = [];
  const awaitingSourceMaps: NormalizedOccurrence[] = [];
  for (const occurrence of payload.occurrences) {
    if (!hasSymbolicationCandidates(occurrence)) events.push(preparedEvent(occurrence, context, receivedAt));
    else if (context.sourceMaps) awaitingSourceMaps.push(occurrence);
    else events.push(preparedEvent(markedWithoutSourceMaps(occurrence), context, receivedAt));
    yield;
  }
  return {
    items: (payload.envelope?.items ?? []).map((item) => ({
      type: item.type,
      skipped: item.skipped,
      ...(item.oversized ? { oversized: true } : {}),
      ...(item.type === "client_report" ? { report: item.json } : {}),
    })),
    events,
    awaitingSourceMaps,
    sessions: (payload.envelope?.items ?? []).flatMap((item) =>
      item.type === "session" || item.type === "sessions" ? readSessionItem(item.type, item.json, receivedAt) : [],
    ),
    responseId: payload.responseId,
    dsn: payload.dsn,
  };
}

/**
 * One normalised event scrubbed, grouped and prepared for the batch writer; one whose frames wait
 * for a bundle not uploaded yet says which debug ids, so the event can be linked once it is
 * (source-map-waits.ts). Scrubbing comes first so that what it replaced (a card number in a
 * message) neither reaches storage nor splits the issue.
 */
export function preparedEvent(occurrence: NormalizedOccurrence, context: PrepareContext, receivedAt: Date): PreparedOccurrence {
  const scrubbed = scrubOccurrence(occurrence, context.scrub ?? DEFAULT_SCRUB);
  const grouping = groupForIngest(occurrence, { legacy: context.legacyGrouping !== false });
  const prepared = prepareOccurrence({ organizationId: context.organizationId, projectId: context.projectId, occurrence, grouping, receivedAt, scrubbed });
  const debugIds = debugIdsAwaitingMaps(occurrence);
  return debugIds.length ? { ...prepared, awaitingMaps: { fingerprint: grouping.fingerprint, eventId: occurrence.eventId, debugIds } } : prepared;
}
