import type { IngestRequest } from "./http/ingest-dispatcher";
import { IngestError } from "./http/ingest-error";
import { refusedBy, type IngestResult, type IngestService } from "./ingest.service";
import type { IngestProject } from "./project-key.cache";
import { extractSentryAuth, type SentryAuthInput } from "./sentry/sentry-auth";
import { readSentryPayloadAsync, type SentryEndpoint } from "./sentry/sentry-payload.reader";
import type { ReadyPayload } from "./prepare/ready-payload";

/** What the Sentry steps read of a request: the key's places (query, headers), the body stream, the client address. */
export type SentryRequest = Pick<IngestRequest, "req" | "query" | "clientIp">;

/**
 * `/envelope/`: events, client reports and items stored elsewhere or not at all. Resolves to the
 * id to answer with (null: answer `{}`) once every event is committed, or to the rate-limit refusal.
 */
export async function ingestEnvelope(ingest: IngestService, request: SentryRequest, urlProjectNumber: number): Promise<IngestResult<string | null>> {
  // Most SDKs put the key in the query or a header: then a bad body can be counted against the
  // project, and the body is prepared for it in one go (on a payload worker). Keys that only
  // travel in the envelope header are checked after parsing.
  const early = hasRequestAuth(request) ? await ingest.authorize(extractSentryAuth(authInput(request, urlProjectNumber)).publicKey, urlProjectNumber) : null;
  const read = early ? await readReady(ingest, "envelope", request, early) : await readThenAuthorize(ingest, request, urlProjectNumber);
  if (!read.accepted) return read;
  const { project, payload } = read.value;
  // The envelope's own DSN must agree with the request's key (auth_conflict otherwise).
  if (early) extractSentryAuth(authInput(request, urlProjectNumber, payload.dsn));
  // Quotas count error events; client reports and sessions are bookkeeping (as in Relay) and
  // must still arrive while the SDK backs off, or its discard counts would be lost.
  if (payload.events.length > 0 && ingest.limitsRate) {
    const verdict = await ingest.checkRateLimit(project);
    if (verdict.limited) return refusedBy(verdict);
  }
  const quota = await ingest.checkQuota(project, payload.events.length);
  if (quota.limited) return refusedBy(quota);
  for (const item of payload.items) {
    if (item.oversized) ingest.recordOutcome(project, "too_large", `item:${item.type}`, item.type, 1);
    else if (item.type === "client_report") recordClientReport(ingest, project, item.report);
    // Accepted (SDKs must not retry them) but not stored: say so in the outcomes.
    else if (STORED_ELSEWHERE_OR_UNSUPPORTED.has(item.type) || item.skipped)
      ingest.recordOutcome(project, "filtered", `unsupported:${item.type.slice(0, 32)}`, item.type.slice(0, 32), 1);
  }
  // Sessions are not events: outside the quota, and committed with the events (a 2xx means counted).
  if (payload.sessions.length === 0) await ingest.storeWithinQuota(project, payload.events);
  else await Promise.all([ingest.storeWithinQuota(project, payload.events), ingest.storeSessions(project, payload.sessions)]);
  return { accepted: true, value: payload.responseId };
}

/** Legacy `/store/`: one event. Resolves to its id once committed, or to the rate-limit refusal. */
export async function ingestStoreBody(ingest: IngestService, request: SentryRequest, urlProjectNumber: number): Promise<IngestResult<string | null>> {
  // Headers and query carry the key on the store endpoint; check it before reading the body.
  const auth = extractSentryAuth(authInput(request, urlProjectNumber));
  const project = await ingest.authorize(auth.publicKey, urlProjectNumber);
  const read = await readReady(ingest, "store", request, project);
  if (!read.accepted) return read;
  const { payload } = read.value;
  if (ingest.limitsRate) {
    const verdict = await ingest.checkRateLimit(project);
    if (verdict.limited) return refusedBy(verdict);
  }
  const quota = await ingest.checkQuota(project, payload.events.length);
  if (quota.limited) return refusedBy(quota);
  await ingest.storeWithinQuota(project, payload.events);
  return { accepted: true, value: payload.responseId };
}

/** Item types Faultline accepts without storing: performance data, attachments, replays, logs. */
const STORED_ELSEWHERE_OR_UNSUPPORTED = new Set([
  "transaction",
  "attachment",
  "replay_event",
  "replay_recording",
  "profile",
  "profile_chunk",
  "span",
  "log",
  "check_in",
  "user_report",
  "feedback",
]);

const hasRequestAuth = ({ query, req }: SentryRequest) =>
  query.getAll("sentry_key").length === 1 || req.headers["x-sentry-auth"] !== undefined || /^sentry /i.test(String(req.headers.authorization ?? ""));

function authInput(request: SentryRequest, urlProjectNumber: number, envelopeDsn: string | null = null): SentryAuthInput {
  return { query: request.query, headers: request.req.headers, envelopeDsn, urlProjectNumber };
}

/** What a request's body became: prepared for its project, or refused by the key's byte budget. */
type ReadBody = IngestResult<{ project: IngestProject; payload: ReadyPayload }>;

/**
 * Reads the body, charges it to the key's byte budget (large bodies only), then parses and
 * prepares it for a project known beforehand (prepare/ready-payload.ts): a refused body is never parsed.
 */
async function readReady(ingest: IngestService, endpoint: SentryEndpoint, request: SentryRequest, project: IngestProject): Promise<ReadBody> {
  const options = readOptions(ingest, request);
  const early = ingest.refuseLargeBodyEarly(project, request.req);
  if (early.limited) return refusedBy(early);
  const body = await countingRefusals(ingest, project, () => ingest.readBody(request.req));
  const bytes = await ingest.checkBodyBytes(project, body.length);
  if (bytes.limited) return refusedBy(bytes);
  const payload = await countingRefusals(ingest, project, () => ingest.prepare({ endpoint, body, options, context: project }));
  return { accepted: true, value: { project, payload } };
}

/** An envelope whose key only its header carries: read here, then prepared once that key names the project. */
async function readThenAuthorize(ingest: IngestService, request: SentryRequest, urlProjectNumber: number): Promise<ReadBody> {
  const options = readOptions(ingest, request);
  const body = await countingRefusals(ingest, null, () => ingest.readBody(request.req));
  const read = await countingRefusals(ingest, null, () => readSentryPayloadAsync("envelope", body, options));
  const project = await ingest.authorize(extractSentryAuth(authInput(request, urlProjectNumber, read.dsn)).publicKey, urlProjectNumber);
  const bytes = await ingest.checkBodyBytes(project, body.length);
  if (bytes.limited) return refusedBy(bytes);
  return { accepted: true, value: { project, payload: await ingest.prepareRead(read, project, options.receivedAt) } };
}

function readOptions(ingest: IngestService, request: SentryRequest) {
  return {
    ingestLimits: ingest.deps.limits,
    receivedAt: new Date(),
    // `{{auto}}` user IPs: the client as seen through TRUST_PROXY hops, like the request log.
    connectionIp: request.clientIp(),
  };
}

/** A body rejected as invalid (400) or too large (413) is counted in the project's outcomes, when the project is known. */
async function countingRefusals<T>(ingest: IngestService, project: IngestProject | null, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (project && error instanceof IngestError && error.status !== 415) {
      ingest.recordOutcome(project, error.status === 413 ? "too_large" : "invalid", error.code, "error", 1);
    }
    throw error;
  }
}

function recordClientReport(ingest: IngestService, project: IngestProject, report: unknown) {
  const discarded = (report as { discarded_events?: unknown } | undefined)?.discarded_events;
  if (!Array.isArray(discarded)) return;
  for (const entry of discarded.slice(0, 100)) {
    const { reason, category, quantity } = (entry ?? {}) as { reason?: unknown; category?: unknown; quantity?: unknown };
    if (typeof reason !== "string" || typeof category !== "string" || typeof quantity !== "number" || !(quantity > 0)) continue;
    ingest.recordOutcome(project, "client_discard", reason.slice(0, 64), category.slice(0, 32), Math.min(Math.floor(quantity), 1_000_000));
  }
}
