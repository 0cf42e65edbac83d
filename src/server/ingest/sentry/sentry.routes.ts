import type { Logger } from "../../logger";
import { parseProjectNumber } from "./dsn";
import { IngestError } from "../http/ingest-error";
import { answerIngestError, answerRateLimited, type IngestReply } from "../http/ingest-http";
import type { IngestRequest } from "../http/ingest-dispatcher";
import type { IngestService } from "../ingest.service";
import { extractSentryAuth, type SentryAuthInput } from "./sentry-auth";
import type { IngestProject } from "../project-key.cache";
import type { NormalizedOccurrence } from "../store/occurrence.types";
import { readSentryPayload } from "./sentry-payload.reader";

function projectNumberOf(request: IngestRequest): number {
  const number = parseProjectNumber(request.projectSegment);
  if (number === null) throw new IngestError("malformed", "the project id in the URL must be a positive integer");
  return number;
}

function authInput(request: IngestRequest, urlProjectNumber: number, envelopeDsn: string | null = null): SentryAuthInput {
  return { query: request.query, headers: request.req.headers, envelopeDsn, urlProjectNumber };
}

/** Sentry SDK endpoints (docs/ingest-protocol.md §1): envelope and legacy store, with and without slash. */
export function sentryIngestHandlers(ingest: IngestService, logger: Logger) {
  const envelope = async (request: IngestRequest) => {
    const { req, reply } = request;
    try {
      const urlProjectNumber = projectNumberOf(request);
      // Most SDKs put the key in the query or a header: then a bad body can be counted against the
      // project. Keys that only travel in the envelope header are checked after parsing.
      const early = hasRequestAuth(request)
        ? await ingest.authorize(extractSentryAuth(authInput(request, urlProjectNumber)).publicKey, urlProjectNumber)
        : null;
      const payload = await countRejections(ingest, early, async () => readSentryPayload("envelope", await ingest.readBody(req), readOptions(ingest, request)));
      const auth = extractSentryAuth(authInput(request, urlProjectNumber, payload.dsn));
      const project = early ?? (await ingest.authorize(auth.publicKey, urlProjectNumber));
      // Quotas count error events; client reports and sessions are bookkeeping (as in Relay) and
      // must still arrive while the SDK backs off, or its discard counts would be lost.
      if (payload.occurrences.length > 0 && (await rateLimited(ingest, project, reply))) return;
      for (const item of payload.envelope?.items ?? []) {
        if (item.type === "client_report") recordClientReport(ingest, project, item.json);
        // Accepted (SDKs must not retry them) but not stored: say so in the outcomes.
        else if (STORED_ELSEWHERE_OR_UNSUPPORTED.has(item.type) || item.skipped)
          ingest.recordOutcome(project, "filtered", `unsupported:${item.type.slice(0, 32)}`, item.type.slice(0, 32), 1);
      }
      await storeAll(ingest, project, payload.occurrences);
      reply.json(200, payload.responseId ? { id: payload.responseId } : {});
    } catch (error) {
      answerIngestError(req, reply, error, logger);
    }
  };

  const store = async (request: IngestRequest) => {
    const { req, reply } = request;
    try {
      const urlProjectNumber = projectNumberOf(request);
      // Headers and query carry the key on the store endpoint; check it before reading the body.
      const auth = extractSentryAuth(authInput(request, urlProjectNumber));
      const project = await ingest.authorize(auth.publicKey, urlProjectNumber);
      const payload = await countRejections(ingest, project, async () => readSentryPayload("store", await ingest.readBody(req), readOptions(ingest, request)));
      if (await rateLimited(ingest, project, reply)) return;
      await storeAll(ingest, project, payload.occurrences);
      reply.json(200, { id: payload.responseId });
    } catch (error) {
      answerIngestError(req, reply, error, logger);
    }
  };

  return { envelope, store };
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

const hasRequestAuth = ({ query, req }: IngestRequest) =>
  query.getAll("sentry_key").length === 1 || req.headers["x-sentry-auth"] !== undefined || /^sentry /i.test(String(req.headers.authorization ?? ""));

/** Counts a body rejected as invalid (400) or too large (413) in the project's outcomes. */
async function countRejections<T>(ingest: IngestService, project: IngestProject | null, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (project && error instanceof IngestError && error.status !== 415) {
      ingest.recordOutcome(project, error.status === 413 ? "too_large" : "invalid", error.code, "error", 1);
    }
    throw error;
  }
}

async function rateLimited(ingest: IngestService, project: IngestProject, reply: IngestReply) {
  const verdict = await ingest.checkRateLimit(project);
  if (!verdict.limited) return false;
  answerRateLimited(reply, verdict.retryAfterSeconds, "error;default;transaction;attachment;session", verdict.scope === "key" ? "key" : "project");
  return true;
}

const readOptions = (ingest: IngestService, request: IngestRequest) => ({
  ingestLimits: ingest.deps.limits,
  receivedAt: new Date(),
  // `{{auto}}` user IPs: the client as seen through TRUST_PROXY hops, like the request log.
  connectionIp: request.clientIp(),
});

/** Resolves once every occurrence of the request is committed. */
async function storeAll(ingest: IngestService, project: IngestProject, occurrences: NormalizedOccurrence[]) {
  const receivedAt = new Date();
  await Promise.all(occurrences.map((occurrence) => ingest.store(project, occurrence, receivedAt)));
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
