import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The real SDK captures, committed with the tests (see test/fixtures/sdk-envelopes/README.md). */
export const FIXTURES_DIR = path.resolve(import.meta.dirname, "../fixtures/sdk-envelopes");
export const FIXTURE_KEY = "e2e0f1c7e0ee0000000000000000000a";
export const FIXTURE_PROJECT = 42;
const HOP_BY_HOP = new Set(["host", "content-length", "transfer-encoding", "connection"]);

export type SdkFolder = "node" | "python";

export interface SdkCapture {
  folder: SdkFolder;
  file: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body byte for byte as the SDK sent it (still compressed where it was). */
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
    .filter((file) => /^\d{3}-.*\.json$/.test(file))
    .sort()
    .map((file) => {
      const raw = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
      return { folder, file, method: raw.method, url: raw.url, headers: raw.headers, rawBody: Buffer.from(raw.rawBodyBase64, "base64"), body: raw.body };
    });
}

export function loadExpected(folder: SdkFolder): ExpectedFolder {
  return JSON.parse(readFileSync(path.join(FIXTURES_DIR, folder, "expected.json"), "utf8"));
}

/**
 * Replays a capture byte for byte (its recorded headers minus hop-by-hop ones), rewriting only the
 * project number and key so it lands in the test's project, as the fixtures' README describes.
 */
export async function replayOverHttp(baseUrl: string, capture: SdkCapture, target: { projectNumber: number; publicKey: string }) {
  const url = capture.url.replace(`/api/${FIXTURE_PROJECT}/`, `/api/${target.projectNumber}/`).replaceAll(FIXTURE_KEY, target.publicKey);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(capture.headers)) {
    if (!HOP_BY_HOP.has(name.toLowerCase())) headers[name] = value.replaceAll(FIXTURE_KEY, target.publicKey);
  }
  // The envelope header may carry the DSN too; rewrite it only when the body is not compressed.
  let body = capture.rawBody;
  if (!capture.headers["content-encoding"] && body.includes(FIXTURE_KEY)) {
    body = Buffer.from(
      body
        .toString("utf8")
        .replaceAll(`${FIXTURE_KEY}@127.0.0.1:9131/${FIXTURE_PROJECT}`, `${target.publicKey}@127.0.0.1:9131/${target.projectNumber}`)
        .replaceAll(FIXTURE_KEY, target.publicKey),
    );
  }
  return fetch(new URL(url, baseUrl), { method: capture.method, headers, body: new Uint8Array(body) });
}
