import { Router, type Request, type Response } from "express";
import type { Logger } from "../logger";
import { parseProjectNumber } from "./dsn";
import { IngestError } from "./ingest-error";
import { answerIngestError, answerPreflight, answerRateLimited, setIngestCors } from "./ingest-http";
import type { IngestService } from "./ingest.service";
import { extractSentryAuth, type SentryAuthInput } from "./sentry-auth";
import type { IngestProject } from "./project-key.cache";
import type { NormalizedOccurrence } from "./occurrence.types";
import { readSentryPayload } from "./sentry-payload.reader";

const ENVELOPE_PATH = "/api/:projectNumber/envelope{/}";
const STORE_PATH = "/api/:projectNumber/store{/}";

function projectNumberOf(req: Request): number {
  const number = parseProjectNumber(req.params.projectNumber);
  if (number === null) throw new IngestError("malformed", "the project id in the URL must be a positive integer");
  return number;
}

function authInput(req: Request, urlProjectNumber: number, envelopeDsn: string | null = null): SentryAuthInput {
  return { query: req.query as Record<string, unknown>, headers: req.headers, envelopeDsn, urlProjectNumber };
}

/** Sentry SDK endpoints (INGEST-PROTOCOL.md §1): envelope and legacy store, with and without slash. */
export function sentryIngestRoutes(ingest: IngestService, logger: Logger) {
  const routes = Router();
  routes.options([ENVELOPE_PATH, STORE_PATH], answerPreflight());

  routes.post(ENVELOPE_PATH, async (req, res) => {
    setIngestCors(res);
    try {
      const urlProjectNumber = projectNumberOf(req);
      // Most SDKs put the key in the query or a header: then a bad body can be counted against the
      // project. Keys that only travel in the envelope header are checked after parsing.
      const early = hasRequestAuth(req) ? await ingest.authorize(extractSentryAuth(authInput(req, urlProjectNumber)).publicKey, urlProjectNumber) : null;
      const payload = await countRejections(ingest, early, async () => readSentryPayload("envelope", await ingest.readBody(req), readOptions(ingest, req)));
      const auth = extractSentryAuth(authInput(req, urlProjectNumber, payload.dsn));
      const project = early ?? (await ingest.authorize(auth.publicKey, urlProjectNumber));
      // Quotas count error events; client reports and sessions are bookkeeping (as in Relay) and
      // must still arrive while the SDK backs off, or its discard counts would be lost.
      if (payload.occurrences.length > 0 && (await rateLimited(ingest, project, res))) return;
      for (const item of payload.envelope?.items ?? []) {
        if (item.type === "client_report") recordClientReport(ingest, project, item.json);
        // Accepted (SDKs must not retry them) but not stored: say so in the outcomes.
        else if (STORED_ELSEWHERE_OR_UNSUPPORTED.has(item.type) || item.skipped) ingest.recordOutcome(project, "filtered", `unsupported:${item.type.slice(0, 32)}`, item.type.slice(0, 32), 1);
      }
      await storeAll(ingest, project, payload.occurrences);
      res.status(200).json(payload.responseId ? { id: payload.responseId } : {});
    } catch (error) {
      answerIngestError(req, res, error, logger);
    }
  });

  routes.post(STORE_PATH, async (req, res) => {
    setIngestCors(res);
    try {
      const urlProjectNumber = projectNumberOf(req);
      // Headers and query carry the key on the store endpoint; check it before reading the body.
      const auth = extractSentryAuth(authInput(req, urlProjectNumber));
      const project = await ingest.authorize(auth.publicKey, urlProjectNumber);
      const payload = await countRejections(ingest, project, async () => readSentryPayload("store", await ingest.readBody(req), readOptions(ingest, req)));
      if (await rateLimited(ingest, project, res)) return;
      await storeAll(ingest, project, payload.occurrences);
      res.status(200).json({ id: payload.responseId });
    } catch (error) {
      answerIngestError(req, res, error, logger);
    }
  });

  return routes;
}

/** Item types Faultline accepts without storing: performance data, attachments, replays, logs. */
const STORED_ELSEWHERE_OR_UNSUPPORTED = new Set(["transaction", "attachment", "replay_event", "replay_recording", "profile", "profile_chunk", "span", "log", "check_in", "user_report", "feedback"]);

const hasRequestAuth = (req: Request) =>
  typeof req.query.sentry_key === "string" || req.headers["x-sentry-auth"] !== undefined || /^sentry /i.test(String(req.headers.authorization ?? ""));

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

async function rateLimited(ingest: IngestService, project: IngestProject, res: Response) {
  const verdict = await ingest.checkRateLimit(project);
  if (!verdict.limited) return false;
  answerRateLimited(res, verdict.retryAfterSeconds, "error;default;transaction;attachment;session", verdict.scope === "key" ? "key" : "project");
  return true;
}

const readOptions = (ingest: IngestService, req: Request) => ({
  ingestLimits: ingest.deps.limits,
  receivedAt: new Date(),
  connectionIp: req.socket.remoteAddress ?? null,
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
