/**
 * Many distinct events from the real SDK captures and public SDK payloads, for load tests that
 * compare two runs: each event is fixed up front (id, time, user, tag), so sending the same list
 * twice sends the same events, whatever project number and key each run's project has.
 */
import { gzipSync } from "node:zlib";
import { FIXTURE_KEY, FIXTURE_PROJECT, loadCaptures, type SdkCapture } from "./sdk-fixtures";
import { envelopeOf, loadPayload } from "./sdk-payloads";

export interface EventTarget {
  projectNumber: number;
  publicKey: string;
}

export interface PlannedEvent {
  /** Which of the run's projects it goes to (an index). */
  project: number;
  eventId: string;
  template: number;
  /** ISO time: fixed and in the past, so no drift or range correction depends on when it is sent. */
  timestamp: string;
  userId: string;
  shard: string;
}

export interface OutgoingRequest {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** The large captures (60 KB) are left out: they would measure the proxy, not the replicas. */
const LARGE = /-large-/;
const PAYLOAD_FILES = [
  "electron-main-error.json",
  "electron-renderer-error.json",
  "elixir-event-7x.json",
  "go-event-000.json",
  "java-sentry_event.json",
  "cocoa-cordova-exception.json",
  "cocoa-raven-rejectedpromise.json",
  "native-macos-event.json",
];

type Template = (event: PlannedEvent, target: EventTarget) => OutgoingRequest;

/** The event with this plan's id, time, user and tag; the SDK's own fields are kept. */
function stamp(original: Record<string, unknown>, event: PlannedEvent): Record<string, unknown> {
  const timestamp = typeof original.timestamp === "number" ? Date.parse(event.timestamp) / 1000 : event.timestamp;
  const tags = original.tags;
  const withShard = Array.isArray(tags) ? [...tags, ["shard", event.shard]] : { ...(tags as object | undefined), shard: event.shard };
  return { ...original, event_id: event.eventId, timestamp, user: { ...(original.user as object | undefined), id: event.userId }, tags: withShard };
}

/** An envelope capture (@sentry/node): header and event item rewritten; no `sent_at`, whose drift correction depends on the send time. */
function envelopeTemplate(capture: SdkCapture): Template {
  const [headerLine, , eventLine] = capture.body.split("\n");
  const header = JSON.parse(headerLine!);
  delete header.sent_at;
  const original = JSON.parse(eventLine!);
  return (event, target) => {
    // The header's DSN ("…@127.0.0.1:9131/42") names the capture's project and key.
    const headerText = JSON.stringify({ ...header, event_id: event.eventId })
      .replaceAll(`/${FIXTURE_PROJECT}"`, `/${target.projectNumber}"`)
      .replaceAll(FIXTURE_KEY, target.publicKey);
    const body = `${headerText}\n{"type":"event"}\n${JSON.stringify(stamp(original, event))}\n`;
    return {
      path: capture.url.replace(`/api/${FIXTURE_PROJECT}/`, `/api/${target.projectNumber}/`).replaceAll(FIXTURE_KEY, target.publicKey),
      headers: { "user-agent": capture.headers["user-agent"] ?? "sentry" },
      body: Buffer.from(body),
    };
  };
}

/** A legacy store capture (sentry-python): gzipped again as the SDK sent it, key in X-Sentry-Auth. */
function storeTemplate(capture: SdkCapture): Template {
  const original = JSON.parse(capture.body);
  const headers = Object.fromEntries(
    Object.entries(capture.headers).filter(([name]) => !["host", "content-length", "connection", "transfer-encoding"].includes(name)),
  );
  return (event, target) => {
    const json = Buffer.from(JSON.stringify(stamp(original, event)));
    const auth = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replaceAll(FIXTURE_KEY, target.publicKey)]));
    return {
      path: `/api/${target.projectNumber}/store/`,
      headers: auth,
      body: headers["content-encoding"] === "gzip" ? gzipSync(json) : json,
    };
  };
}

/** A public SDK payload (Electron, Elixir, Go, Java, Cocoa, Native) in an envelope, key in the query. */
function payloadTemplate(file: string): Template {
  const original = loadPayload(file);
  return (event, target) => ({
    path: `/api/${target.projectNumber}/envelope/?sentry_key=${target.publicKey}&sentry_version=7`,
    headers: { "content-type": "application/x-sentry-envelope" },
    body: Buffer.from(envelopeOf(stamp(original, event))),
  });
}

export function loadTemplates(): Template[] {
  const node = loadCaptures("node").filter((capture) => capture.file.endsWith("-event.json") && !LARGE.test(capture.file));
  const python = loadCaptures("python").filter((capture) => capture.file.endsWith("-store.json") && !LARGE.test(capture.file));
  return [...node.map(envelopeTemplate), ...python.map(storeTemplate), ...PAYLOAD_FILES.map(payloadTemplate)];
}

/**
 * `count` events over `projects` projects and every template, timed over the 36 hours before
 * `now` minus four (inside the 30-day window, never in the future), with 23 users and 5 shards.
 */
export function planEvents(count: number, projects: number, templates: number, now = Date.now()): PlannedEvent[] {
  const start = now - 40 * 3_600_000;
  return Array.from({ length: count }, (_, i) => ({
    project: i % projects,
    eventId: crypto.randomUUID().replaceAll("-", ""),
    template: Math.floor(i / projects) % templates,
    timestamp: new Date(start + ((i * 7_919) % 36) * 3_600_000 + (i % 60) * 60_000).toISOString(),
    userId: `user-${i % 23}`,
    shard: String(i % 5),
  }));
}
