import type { IncomingMessage } from "node:http";
import { recordAnalyticsEvent } from "../events/analytics-event.service";
import { IngestError } from "./http/ingest-error";
import { parseJsonBytes } from "./http/json-payload";
import { ACCEPTED, refusedBy, type IngestResult, type IngestService } from "./ingest.service";
import { extractNativeApiKey } from "./native/native-auth";
import { parseNativeEvent } from "./native/native-event.schema";
import { normalizeNativeException } from "./native/native-exception.normalizer";
import { preparedEvent } from "./prepare/ready-payload";

/** Native `POST /api/v1/exceptions`: one error occurrence, grouped and committed, unless rate limited. */
export async function ingestNativeException(ingest: IngestService, req: IncomingMessage): Promise<IngestResult<void>> {
  const project = await ingest.authorize(extractNativeApiKey(req.headers));
  // Prepared before the quota is taken (as the Sentry endpoints do), so nothing between taking and storing can throw.
  const event = preparedEvent(normalizeNativeException(await readJson(ingest, req)), project, new Date());
  if (ingest.limitsRate) {
    const verdict = await ingest.checkRateLimit(project);
    if (verdict.limited) return refusedBy(verdict);
  }
  const quota = await ingest.checkQuota(project, 1);
  if (quota.limited) return refusedBy(quota);
  await ingest.storeWithinQuota(project, [event]);
  return ACCEPTED;
}

/**
 * Native `POST /api/v1/events`: one analytics event, committed by the events domain, unless rate
 * limited or over quota. It draws on the same monthly quota as exceptions (docs/billing.md): a
 * plan sells one number of events, and an unmetered endpoint would store anything past it.
 */
export async function ingestNativeEvent(ingest: IngestService, req: IncomingMessage): Promise<IngestResult<void>> {
  const project = await ingest.authorize(extractNativeApiKey(req.headers));
  const input = parseNativeEvent(await readJson(ingest, req));
  if (ingest.limitsRate) {
    const verdict = await ingest.checkRateLimit(project);
    if (verdict.limited) return refusedBy(verdict);
  }
  const quota = await ingest.checkQuota(project, 1);
  if (quota.limited) return refusedBy(quota);
  await ingest.storeOneWithinQuota(project, () => recordAnalyticsEvent(ingest.deps.writer, project, input, new Date()));
  return ACCEPTED;
}

async function readJson(ingest: IngestService, req: IncomingMessage) {
  const body = await ingest.readBody(req);
  if (body.length > ingest.deps.limits.maxEventBytes) throw new IngestError("too_large", "body exceeds the size limit");
  const json = parseJsonBytes(body, ingest.deps.limits.maxJsonDepth, "body");
  if (!json.ok) throw IngestError.fromFailure(json.error);
  return json.value;
}
