import type { IncomingMessage } from "node:http";
import type { Db } from "../../db/client";
import { events } from "../../db/schema/index";
import type { Logger } from "../../logger";
import { IngestError } from "../http/ingest-error";
import { answerIngestError, answerRateLimited } from "../http/ingest-http";
import type { IngestRequest } from "../http/ingest-dispatcher";
import type { IngestService } from "../ingest.service";
import { parseJsonBytes } from "../http/json-payload";
import { extractNativeApiKey } from "./native-auth";
import { parseNativeEvent } from "./native-event.schema";
import { normalizeNativeException } from "./native-exception.normalizer";
import { StorageUnavailableError } from "../http/storage-unavailable";

const OK = { result: "OK" };

async function readJson(ingest: IngestService, req: IncomingMessage) {
  const body = await ingest.readBody(req);
  if (body.length > ingest.deps.limits.maxEventBytes) throw new IngestError("too_large", "body exceeds the size limit");
  const json = parseJsonBytes(body, ingest.deps.limits.maxJsonDepth, "body");
  if (!json.ok) throw IngestError.fromFailure(json.error);
  return json.value;
}

/** The original product's native SDK endpoints (docs/ingest-protocol.md §2), answering 201 {"result":"OK"}. */
export function nativeIngestHandlers(ingest: IngestService, db: Db, logger: Logger) {
  const exceptions = async ({ req, reply }: IngestRequest) => {
    try {
      const project = await ingest.authorize(extractNativeApiKey(req.headers));
      const occurrence = normalizeNativeException(await readJson(ingest, req));
      const verdict = await ingest.checkRateLimit(project);
      if (verdict.limited) return answerRateLimited(reply, verdict.retryAfterSeconds, "error", verdict.scope ?? "project");
      await ingest.store(project, occurrence, new Date());
      reply.json(201, OK);
    } catch (error) {
      answerIngestError(req, reply, error, logger);
    }
  };

  const productEvents = async ({ req, reply }: IngestRequest) => {
    try {
      const project = await ingest.authorize(extractNativeApiKey(req.headers));
      const input = parseNativeEvent(await readJson(ingest, req));
      const verdict = await ingest.checkRateLimit(project);
      if (verdict.limited) return answerRateLimited(reply, verdict.retryAfterSeconds, "default", verdict.scope ?? "project");
      try {
        await db
          .insert(events)
          .values({ organizationId: project.organizationId, projectId: project.projectId, name: input.name, properties: input.properties ?? {} });
      } catch (error) {
        throw new StorageUnavailableError("Storage is unavailable", 5, { cause: error });
      }
      reply.json(201, OK);
    } catch (error) {
      answerIngestError(req, reply, error, logger);
    }
  };

  return { exceptions, events: productEvents };
}
