import type { Logger } from "../../logger";
import { parseProjectNumber } from "./dsn";
import { IngestError } from "../http/ingest-error";
import { answerIngestError, answerRateLimited, type IngestReply } from "../http/ingest-http";
import type { IngestRequest } from "../http/ingest-dispatcher";
import type { IngestService } from "../ingest.service";
import type { RateLimitVerdict } from "../http/ingest-rate-limit";
import { ingestEnvelope, ingestStoreBody } from "../sentry-ingest.service";

function projectNumberOf(request: IngestRequest): number {
  const number = parseProjectNumber(request.projectSegment);
  if (number === null) throw new IngestError("malformed", "the project id in the URL must be a positive integer");
  return number;
}

/** What SDKs must stop sending while limited: every category of an error-tracking envelope. */
const answerLimited = (reply: IngestReply, verdict: RateLimitVerdict) =>
  answerRateLimited(reply, verdict.retryAfterSeconds, "error;default;transaction;attachment;session", verdict.scope ?? "project");

/**
 * Sentry SDK endpoints (docs/ingest-protocol.md §1): envelope and legacy store, with and without slash.
 * HTTP only: the steps are in sentry-ingest.service.ts.
 */
export function sentryIngestHandlers(ingest: IngestService, logger: Logger) {
  const envelope = async (request: IngestRequest) => {
    const { req, reply } = request;
    try {
      const result = await ingestEnvelope(ingest, request, projectNumberOf(request));
      if (!result.accepted) answerLimited(reply, result.rateLimit);
      else reply.json(200, result.value ? { id: result.value } : {});
    } catch (error) {
      answerIngestError(req, reply, error, logger);
    }
  };

  const store = async (request: IngestRequest) => {
    const { req, reply } = request;
    try {
      const result = await ingestStoreBody(ingest, request, projectNumberOf(request));
      if (!result.accepted) answerLimited(reply, result.rateLimit);
      else reply.json(200, { id: result.value });
    } catch (error) {
      answerIngestError(req, reply, error, logger);
    }
  };

  return { envelope, store };
}
