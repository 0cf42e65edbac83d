import { readFileSync } from "node:fs";
import path from "node:path";

/** Public SDK payloads (see test/fixtures/sdk-payloads/README.md for each file's source and licence). */
export const PAYLOADS_DIR = path.resolve(import.meta.dirname, "../fixtures/sdk-payloads");

/**
 * Values for the placeholders sentry-electron's e2e expectations carry (`{{version}}`, `{{id}}`, …):
 * its test runner fills them from the run; the replay fills them with these fixed values.
 */
const ELECTRON_PLACEHOLDERS: Record<string, string> = {
  "{{version}}": "1.0.0",
  "{{function}}": "thrower",
  "{{arch}}": "x64",
  "{{platform}}": "linux",
  "{{cpu}}": "test cpu",
  "{{screen}}": "1920x1080",
  "{{language}}": "en-US",
  "{{time}}": "2026-11-21T15:00:00.000Z",
};

/** The SDK event of a fixture file: the file itself, or the `data` of a sentry-electron expectation. */
export function loadPayload(file: string): Record<string, unknown> {
  let text = readFileSync(path.join(PAYLOADS_DIR, file), "utf8");
  const wrapped = JSON.parse(text);
  if (!("data" in wrapped && "sentryKey" in wrapped)) return wrapped;
  for (const [placeholder, value] of Object.entries(ELECTRON_PLACEHOLDERS)) text = text.replaceAll(placeholder, value);
  // One id per file, so two expectations never collide on (project, event_id).
  const id = Buffer.from(file).toString("hex").padEnd(32, "0").slice(0, 32);
  return JSON.parse(text.replaceAll("{{id}}", id)).data;
}

/** An envelope with one event item, as current SDKs send it. */
export function envelopeOf(event: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ event_id: event.event_id, ...header })}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify(event)}\n`;
}

/** Sends a payload over HTTP through the envelope or the legacy store endpoint, authenticated in the query as browser SDKs do. */
export function sendPayload(baseUrl: string, target: { projectNumber: number; publicKey: string }, endpoint: "envelope" | "store", body: string) {
  const url = new URL(`/api/${target.projectNumber}/${endpoint}/?sentry_key=${target.publicKey}&sentry_version=7`, baseUrl);
  const contentType = endpoint === "envelope" ? "application/x-sentry-envelope" : "application/json";
  return fetch(url, { method: "POST", headers: { "content-type": contentType }, body });
}
