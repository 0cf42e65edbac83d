import { envelopeSteps, type Envelope } from "./envelope.parser";
import { normalizeSentryEvent, type NormalizeOptions } from "../normalize/event.normalizer";
import { IngestError } from "../http/ingest-error";
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from "../http/ingest-limits";
import { parseJsonBytes } from "../http/json-payload";
import { decodeLegacyStoreBody } from "./legacy-store-body";
import type { NormalizedOccurrence } from "../../../shared/occurrence.types";
import { runAtOnce, runInSlices, type Steps } from "../prepare/time-slices";

export type SentryEndpoint = "envelope" | "store";

export interface SentryPayload {
  /** The parsed envelope (null for store bodies): sessions, client reports, attachments live here. */
  envelope: Envelope | null;
  /** Error occurrences to group and store, in item order. */
  occurrences: NormalizedOccurrence[];
  /** What to answer `{"id": …}` with; null means answer `{}` (no event in the envelope). */
  responseId: string | null;
  /** The envelope header `dsn`, one of the auth sources (see extractSentryAuth). */
  dsn: string | null;
}

export interface ReadPayloadOptions extends Omit<NormalizeOptions, "fallbackEventId" | "sentAt"> {
  ingestLimits?: Partial<IngestLimits>;
}

function readStoreBody(body: Buffer, limits: IngestLimits, options: ReadPayloadOptions): SentryPayload {
  const json = decodeLegacyStoreBody(body, limits);
  if (json.length > limits.maxEventBytes) {
    throw new IngestError("too_large", `event exceeds ${limits.maxEventBytes} bytes`);
  }
  const parsed = parseJsonBytes(json, limits.maxJsonDepth, "store body");
  if (!parsed.ok) throw IngestError.fromFailure(parsed.error);
  const occurrence = normalizeSentryEvent(parsed.value, options);
  return { envelope: null, occurrences: [occurrence], responseId: occurrence.eventId, dsn: null };
}

/** Yields after parsing each JSON item and after normalising each event (prepare/time-slices.ts). */
function* readEnvelopeBody(body: Buffer, limits: IngestLimits, options: ReadPayloadOptions): Steps<SentryPayload> {
  const parsed = yield* envelopeSteps(body, limits);
  if (!parsed.ok) throw IngestError.fromFailure(parsed.error);
  const { envelope } = parsed;
  const occurrences: NormalizedOccurrence[] = [];
  for (const item of envelope.items) {
    if (item.type !== "event") continue;
    // The header's event_id names the envelope's (single) event; later events get their own.
    const fallbackEventId = occurrences.length === 0 ? envelope.header.eventId : null;
    occurrences.push(normalizeSentryEvent(item.json, { ...options, fallbackEventId, sentAt: envelope.header.sentAt }));
    yield;
  }
  return {
    envelope,
    occurrences,
    responseId: occurrences[0]?.eventId ?? envelope.header.eventId,
    dsn: envelope.header.dsn,
  };
}

/**
 * From a decoded request body (after decodeBody) to occurrences: the one call the `/envelope/`
 * and `/store/` routes make between decoding and grouping. Throws IngestError (400/413).
 * Transactions, sessions and client reports stay in `envelope.items` for whoever wants them;
 * they never make the request fail.
 */
export function readSentryPayload(endpoint: SentryEndpoint, body: Buffer, options: ReadPayloadOptions = {}): SentryPayload {
  return runAtOnce(sentryPayloadSteps(endpoint, body, options));
}

/** readSentryPayload on the main thread, in slices (prepare/time-slices.ts). */
export function readSentryPayloadAsync(endpoint: SentryEndpoint, body: Buffer, options: ReadPayloadOptions = {}): Promise<SentryPayload> {
  return runInSlices(sentryPayloadSteps(endpoint, body, options));
}

/** readSentryPayload in steps (prepare/time-slices.ts): a store body is one event, one step. */
export function* sentryPayloadSteps(endpoint: SentryEndpoint, body: Buffer, options: ReadPayloadOptions = {}): Steps<SentryPayload> {
  const limits: IngestLimits = { ...DEFAULT_INGEST_LIMITS, ...options.ingestLimits };
  return endpoint === "store" ? readStoreBody(body, limits, options) : yield* readEnvelopeBody(body, limits, options);
}
