/**
 * Replays the real-SDK captures (loaded by sdk-fixtures.ts, which also replays them over HTTP)
 * through the pure ingest pipeline: decode body → parse → auth → normalise. Used by the ingest
 * and grouping unit tests.
 */
import { Readable } from "node:stream";
import { decodeBody } from "../../src/server/ingest/http/body-decoder";
import { parseProjectNumber } from "../../src/server/ingest/sentry/dsn";
import { DEFAULT_INGEST_LIMITS } from "../../src/server/ingest/http/ingest-limits";
import { extractSentryAuth, type SentryAuth } from "../../src/server/ingest/sentry/sentry-auth";
import { readSentryPayload, type SentryPayload } from "../../src/server/ingest/sentry/sentry-payload.reader";
import type { SdkCapture } from "./sdk-fixtures";

export interface Replayed {
  capture: SdkCapture;
  endpoint: "store" | "envelope";
  projectNumber: number;
  decoded: Buffer;
  payload: SentryPayload;
  auth: SentryAuth;
}

/** What the HTTP routes will do with this request, minus the database. */
export async function replayThroughPipeline(capture: SdkCapture, receivedAt = new Date("2026-11-21T15:00:00Z")): Promise<Replayed> {
  const url = new URL(capture.url, "http://ingest.test");
  const match = /^\/api\/([^/]+)\/(envelope|store)\/?$/.exec(url.pathname);
  if (!match) throw new Error(`not a Sentry ingest URL: ${capture.url}`);
  const projectNumber = parseProjectNumber(match[1]);
  if (projectNumber === null) throw new Error(`bad project number in ${capture.url}`);
  const endpoint = match[2] as "store" | "envelope";

  const decoded = await decodeBody(Readable.from([capture.rawBody]), capture.headers["content-encoding"], DEFAULT_INGEST_LIMITS);
  const payload = readSentryPayload(endpoint, decoded, { receivedAt });
  const auth = extractSentryAuth({
    query: url.searchParams,
    headers: capture.headers,
    envelopeDsn: payload.dsn,
    urlProjectNumber: projectNumber,
  });
  return { capture, endpoint, projectNumber, decoded, payload, auth };
}
