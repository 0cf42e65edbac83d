import type { Logger } from "../../logger";
import { answerIngestError, answerRateLimited } from "../http/ingest-http";
import type { IngestRequest } from "../http/ingest-dispatcher";
import type { IngestService } from "../ingest.service";
import { ingestNativeEvent, ingestNativeException } from "../native-ingest.service";

const OK = { result: "OK" };

/**
 * The original product's native SDK endpoints (docs/ingest-protocol.md §2), answering 201 {"result":"OK"}.
 * HTTP only: the steps are in native-ingest.service.ts.
 */
export function nativeIngestHandlers(ingest: IngestService, logger: Logger) {
  const exceptions = async ({ req, reply }: IngestRequest) => {
    try {
      const result = await ingestNativeException(ingest, req);
      if (!result.accepted) answerRateLimited(reply, result.rateLimit.retryAfterSeconds, "error", result.rateLimit.scope ?? "project");
      else reply.json(201, OK);
    } catch (error) {
      answerIngestError(req, reply, error, logger);
    }
  };

  const productEvents = async ({ req, reply }: IngestRequest) => {
    try {
      const result = await ingestNativeEvent(ingest, req);
      if (!result.accepted) answerRateLimited(reply, result.rateLimit.retryAfterSeconds, "default", result.rateLimit.scope ?? "project");
      else reply.json(201, OK);
    } catch (error) {
      answerIngestError(req, reply, error, logger);
    }
  };

  return { exceptions, events: productEvents };
}
