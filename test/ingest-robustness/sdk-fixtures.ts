/**
 * Loads the captured real-SDK requests (../shared/fixtures/sdk-envelopes, the same captures
 * test/helpers/sdk-fixtures.ts replays over HTTP) and replays them through the pure ingest
 * pipeline: decode body → parse → auth → normalise. Used by the ingest and grouping unit tests;
 * it also exposes the decoded `body` and the full expected.json shape those tests assert.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { decodeBody } from "../../src/server/ingest/body-decoder";
import { parseProjectNumber } from "../../src/server/ingest/dsn";
import { DEFAULT_INGEST_LIMITS } from "../../src/server/ingest/ingest-limits";
import { extractSentryAuth, type SentryAuth } from "../../src/server/ingest/sentry-auth";
import { readSentryPayload, type SentryPayload } from "../../src/server/ingest/sentry-payload.reader";

export const FIXTURES_DIR = path.resolve(import.meta.dirname, "../../../shared/fixtures/sdk-envelopes");
export type SdkFolder = "node" | "python";

export interface SdkCapture {
  folder: SdkFolder;
  file: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  rawBody: Buffer;
  /** The decoded text the capture tool recorded, to cross-check decoding. */
  body: string;
}

export interface ExpectedEvent {
  exception_chain: { type: string | null; value: string | null }[];
  title: string;
  level: string;
  environment: string;
  release: string;
  handled: boolean | null;
  fingerprint: string[] | null;
  message: string | null;
  user_id: string | null;
}

export interface ExpectedFolder {
  files: Record<string, { endpoint: "store" | "envelope"; items: string[]; content_encoding: string | null; events: ExpectedEvent[] }>;
  issues: { scenario: string; files: string[] }[];
}

export function loadCaptures(folder: SdkFolder): SdkCapture[] {
  const dir = path.join(FIXTURES_DIR, folder);
  return readdirSync(dir)
    .filter((f) => /^\d{3}-.*\.json$/.test(f))
    .sort()
    .map((file) => {
      const raw = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
      return { folder, file, method: raw.method, url: raw.url, headers: raw.headers, rawBody: Buffer.from(raw.rawBodyBase64, "base64"), body: raw.body };
    });
}

export function loadExpected(folder: SdkFolder): ExpectedFolder {
  return JSON.parse(readFileSync(path.join(FIXTURES_DIR, folder, "expected.json"), "utf8"));
}

export interface Replayed {
  capture: SdkCapture;
  endpoint: "store" | "envelope";
  projectNumber: number;
  decoded: Buffer;
  payload: SentryPayload;
  auth: SentryAuth;
}

/** What the HTTP routes will do with this request, minus the database. */
export async function replay(capture: SdkCapture, receivedAt = new Date("2026-11-21T15:00:00Z")): Promise<Replayed> {
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
