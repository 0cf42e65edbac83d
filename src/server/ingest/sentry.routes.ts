import { Router, type Request, type Response } from "express";
import type { Logger } from "../logger";
import { parseProjectNumber } from "./dsn";
import { parseEnvelope, type Envelope } from "./envelope.parser";
import { normalizeSentryEvent } from "./event.normalizer";
import { IngestError } from "./ingest-error";
import { answerIngestError, answerPreflight, answerRateLimited, setIngestCors } from "./ingest-http";
import type { IngestService } from "./ingest.service";
import { decodeLegacyStoreBody } from "./legacy-store-body";
import { parseJsonBytes } from "./json-payload";
import { extractSentryAuth, type SentryAuthInput } from "./sentry-auth";
import type { IngestProject } from "./project-key.cache";
import type { NormalizedOccurrence } from "./occurrence.types";

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
      const body = await ingest.readBody(req);
      const parsed = parseEnvelope(body, ingest.deps.limits);
      if (!parsed.ok) throw IngestError.fromFailure(parsed.error);
      const auth = extractSentryAuth(authInput(req, urlProjectNumber, parsed.envelope.header.dsn));
      const project = await ingest.authorize(auth.publicKey, urlProjectNumber);
      // Quotas count error events; client reports and sessions are bookkeeping (as in Relay) and
      // must still arrive while the SDK backs off, or its discard counts would be lost.
      const carriesEvents = parsed.envelope.items.some((item) => item.type === "event");
      if (carriesEvents && (await rateLimited(ingest, project, res))) return;
      const eventId = await storeEnvelope(ingest, project, parsed.envelope, req.socket.remoteAddress ?? null);
      res.status(200).json(eventId ? { id: eventId } : {});
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
      const body = decodeLegacyStoreBody(await ingest.readBody(req), ingest.deps.limits);
      if (body.length > ingest.deps.limits.maxEventBytes) throw new IngestError("too_large", "event exceeds the size limit");
      const json = parseJsonBytes(body, ingest.deps.limits.maxJsonDepth, "event");
      if (!json.ok) throw IngestError.fromFailure(json.error);
      if (await rateLimited(ingest, project, res)) return;
      const occurrence = normalize(json.value, null, req.socket.remoteAddress ?? null);
      await ingest.store(project, occurrence, new Date());
      res.status(200).json({ id: occurrence.eventId });
    } catch (error) {
      answerIngestError(req, res, error, logger);
    }
  });

  return routes;
}

async function rateLimited(ingest: IngestService, project: IngestProject, res: Response) {
  const verdict = await ingest.checkRateLimit(project);
  if (!verdict.limited) return false;
  answerRateLimited(res, verdict.retryAfterSeconds, "error;default;transaction;attachment;session", verdict.scope === "key" ? "key" : "project");
  return true;
}

function normalize(event: unknown, fallbackEventId: string | null, connectionIp: string | null): NormalizedOccurrence {
  try {
    return normalizeSentryEvent(event, { receivedAt: new Date(), connectionIp, fallbackEventId });
  } catch (error) {
    if (error instanceof IngestError) throw error;
    throw new IngestError("malformed", "the event could not be read");
  }
}

/**
 * Stores the envelope's error events (waiting for the commit), records client-report discards,
 * and accepts sessions and unknown items without failing the envelope.
 */
async function storeEnvelope(ingest: IngestService, project: IngestProject, envelope: Envelope, connectionIp: string | null): Promise<string | null> {
  const receivedAt = new Date();
  const writes: Promise<void>[] = [];
  let eventId = envelope.header.eventId;
  for (const item of envelope.items) {
    if (item.type === "event" && item.json !== undefined) {
      const occurrence = normalize(item.json, envelope.header.eventId, connectionIp);
      eventId ??= occurrence.eventId;
      writes.push(ingest.store(project, occurrence, receivedAt));
    } else if (item.type === "client_report") {
      recordClientReport(ingest, project, item.json);
    }
  }
  await Promise.all(writes);
  return eventId;
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
