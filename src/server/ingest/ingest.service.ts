import type { IncomingMessage } from "node:http";
import type { Logger } from "../logger";
import type { BatchWriter } from "./store/batch-writer";
import { decodeBody } from "./http/body-decoder";
import { IngestError } from "./http/ingest-error";
import { StorageUnavailableError } from "./http/storage-unavailable";
import type { IngestLimits } from "./http/ingest-limits";
import type { IngestRateLimiter, RateLimitVerdict } from "./http/ingest-rate-limit";
import type { IngestProject, ProjectKeyCache } from "./project-key.cache";
import type { DataSettingsCache } from "../data-settings/data-settings.cache";
import type { UsageQuota } from "../billing/usage-quota";
import type { PayloadWorkers } from "./prepare/payload-workers";
import { preparedEvent, readyFromAsync, readyPayloadAsync, type PrepareContext, type PrepareInput, type ReadyPayload } from "./prepare/ready-payload";
import type { SentryPayload } from "./sentry/sentry-payload.reader";
import type { EventSymbolicator } from "../sourcemaps/event-symbolicator";
import type { SourceMapWaits } from "../sourcemaps/source-map-waits";
import type { NormalizedOccurrence } from "../../shared/occurrence.types";
import type { PreparedOccurrence } from "./store/prepared-occurrence";
import { releaseHealthRows } from "./store/release-health-commit";
import type { SessionItem } from "./sessions/session-item";
import { countedRefusal } from "../metrics/process-metrics";

export interface IngestDeps {
  keys: ProjectKeyCache;
  /** Each project's data settings, carried to preparing in the project (absent: the product defaults). */
  dataSettings?: DataSettingsCache;
  writer: BatchWriter;
  rateLimiter: IngestRateLimiter;
  limits: IngestLimits;
  logger: Logger;
  /** The plans' monthly quotas (hosted deployment only); absent, events cost nothing extra. */
  quota?: UsageQuota;
  /** Worker threads that prepare request bodies; absent, bodies are prepared on the calling thread. */
  payloads?: PayloadWorkers;
  /** Maps JavaScript frames through the project's uploaded source maps before grouping. */
  symbolicator: EventSymbolicator;
  /** Remembers events whose maps were not uploaded yet, to link them once they are. */
  sourceMapWaits: SourceMapWaits;
}

/** How an SDK request ended: accepted (every event committed) with what to answer, or refused by the rate limit. */
export type IngestResult<T> = { accepted: true; value: T } | { accepted: false; rateLimit: RateLimitVerdict };

/** The reason Sentry's protocol gives for a spent quota (X-Sentry-Rate-Limits' fourth field). */
export const USAGE_EXCEEDED = "usage_exceeded";

const ALLOWED: RateLimitVerdict = { limited: false, retryAfterSeconds: 0, scope: null };

export const ACCEPTED: IngestResult<void> = { accepted: true, value: undefined };

export const refusedBy = (rateLimit: RateLimitVerdict): IngestResult<never> => ({ accepted: false, rateLimit });

/**
 * The protocol-independent steps every SDK endpoint shares. The endpoints' orchestration is in
 * sentry-ingest.service.ts and native-ingest.service.ts; the routes only translate HTTP.
 */
export class IngestService {
  constructor(readonly deps: IngestDeps) {}

  /** Whether any rate limit is configured; without one (the default) the hot path skips the check and its awaits. */
  get limitsRate() {
    return this.deps.rateLimiter.enabled;
  }

  readBody(req: IncomingMessage) {
    return decodeBody(req, req.headers["content-encoding"], this.deps.limits);
  }

  /** Unknown or revoked key → 401; a key of another project than the URL names → 401 as well. */
  async authorize(publicKey: string, urlProjectNumber?: number): Promise<IngestProject> {
    const project = await this.deps.keys.lookup(publicKey);
    if (!project) throw countedRefusal(new IngestError("auth_invalid", "unknown or revoked key"));
    if (urlProjectNumber !== undefined && project.projectNumber !== urlProjectNumber) {
      throw new IngestError("auth_invalid", "the key does not belong to this project");
    }
    // The project is also the prepare context: its scrub settings travel with it (to the payload workers too).
    const scrub = await this.deps.dataSettings?.forProject(project.organizationId, project.projectId);
    return scrub ? { ...project, scrub } : project;
  }

  async checkRateLimit(project: IngestProject): Promise<RateLimitVerdict> {
    const verdict = await this.deps.rateLimiter.check(project.projectId, project.keyId);
    if (verdict.limited) this.recordOutcome(project, "rate_limited", verdict.scope ?? "", "error", 1);
    return verdict;
  }

  /** A decoded body's bytes against its key's byte budget (large bodies only: ingest-rate-limit.ts). */
  async checkBodyBytes(project: IngestProject, bytes: number): Promise<RateLimitVerdict> {
    if (!this.deps.rateLimiter.countsBytes(bytes)) return ALLOWED;
    const verdict = await this.deps.rateLimiter.checkBytes(project.keyId, bytes);
    if (verdict.limited) this.recordOutcome(project, "rate_limited", "key_bytes", "error", 1);
    return verdict;
  }

  /**
   * Before reading: a body that announces a large size (Content-Length, compressed, so decompressed
   * at least as large) from a key whose byte budget is spent in this window is refused unread.
   */
  refuseLargeBodyEarly(project: IngestProject, req: IncomingMessage): RateLimitVerdict {
    if (!this.deps.rateLimiter.countsBytes(Number(req.headers["content-length"] ?? 0))) return ALLOWED;
    const verdict = this.deps.rateLimiter.bytesSpent(project.keyId);
    if (verdict.limited) this.recordOutcome(project, "rate_limited", "key_bytes", "error", 1);
    return verdict;
  }

  /**
   * Takes `events` error events from the organization's monthly quota; when it is spent, the
   * refusal is counted as a rate_limited outcome with reason usage_exceeded (the billing page's "over quota").
   */
  async checkQuota(project: IngestProject, events: number): Promise<RateLimitVerdict> {
    const quota = this.deps.quota;
    if (!quota || events === 0) return ALLOWED;
    const verdict = await quota.admit(project.organizationId, events);
    if (!verdict.limited) return ALLOWED;
    this.recordOutcome(project, "rate_limited", USAGE_EXCEEDED, "error", events);
    return { limited: true, retryAfterSeconds: verdict.retryAfterSeconds, scope: "organization" };
  }

  /**
   * Stores events admitted by checkQuota and resolves once every one is committed. Each event is
   * answered on its own (batch-writer.ts stores the rest of a batch when the database refuses one
   * event), so exactly the events not stored — refused, or the database unavailable (503) — go back
   * to the quota: giving back the whole request let an envelope holding one refused event store the
   * others for free. Rejects with the first failure, a 503 before a 4xx (a retry may store the rest).
   */
  async storeWithinQuota(project: IngestProject, events: PreparedOccurrence[]): Promise<void> {
    // One event is the usual request: no settled array for it.
    if (events.length === 1) return this.storeOneWithinQuota(project, () => this.storePrepared(events[0]));
    if (events.length === 0) return;
    const settled = await Promise.allSettled(events.map((event) => this.storePrepared(event)));
    let unstored = 0;
    let failure: unknown = null;
    for (const outcome of settled) {
      if (outcome.status === "fulfilled") continue;
      unstored += 1;
      if (failure === null || (outcome.reason instanceof StorageUnavailableError && !(failure instanceof StorageUnavailableError))) failure = outcome.reason;
    }
    if (unstored === 0) return;
    await this.deps.quota?.release(project.organizationId, unstored);
    throw failure;
  }

  /** Stores one thing taken from the quota (an exception, an analytics event); its unit goes back when it was not stored. */
  async storeOneWithinQuota(project: IngestProject, store: () => Promise<unknown>): Promise<void> {
    try {
      await store();
    } catch (error) {
      await this.deps.quota?.release(project.organizationId, 1);
      throw error;
    }
  }

  /**
   * Parses, normalises, groups and prepares a body for a known project (prepare/ready-payload.ts),
   * on a payload worker if there are any; events waiting for source maps are finished here.
   */
  async prepare(input: PrepareInput): Promise<ReadyPayload> {
    const payload = await (this.deps.payloads ? this.deps.payloads.prepare(input) : readyPayloadAsync(input));
    return this.withSourceMaps(payload, input.context, input.options.receivedAt);
  }

  /** prepare() for a payload read before its project was known (a key in the envelope header only). */
  async prepareRead(read: SentryPayload, context: PrepareContext, receivedAt: Date): Promise<ReadyPayload> {
    return this.withSourceMaps(await readyFromAsync(read, context, receivedAt), context, receivedAt);
  }

  /** Symbolicates, groups and prepares the events the pure step left for the project's source maps. */
  private async withSourceMaps(payload: ReadyPayload, context: PrepareContext, receivedAt: Date): Promise<ReadyPayload> {
    if (payload.awaitingSourceMaps.length === 0) return payload;
    const mapped: NormalizedOccurrence[] = await Promise.all(
      payload.awaitingSourceMaps.map((occurrence) => this.deps.symbolicator.symbolicate(occurrence, context.projectId)),
    );
    return {
      ...payload,
      events: [...payload.events, ...mapped.map((occurrence) => preparedEvent(occurrence, context, receivedAt))],
      awaitingSourceMaps: [],
    };
  }

  /**
   * Counts a request's session items (release health) in the batches that commit its events:
   * resolves once all are committed; an outage rejects with StorageUnavailableError (503).
   * Sessions are not events: no quota is taken.
   */
  async storeSessions(project: IngestProject, sessions: readonly SessionItem[]): Promise<void> {
    const { organizationId, projectId } = project;
    await Promise.all(sessions.map((session) => this.deps.writer.writeRow(releaseHealthRows, { ...session, organizationId, projectId })));
  }

  /** Stores one prepared event; resolves only once it is committed. */
  storePrepared(event: PreparedOccurrence) {
    const stored = this.deps.writer.writePrepared(event);
    if (!event.awaitingMaps) return stored;
    return stored.then((committed) => {
      this.deps.sourceMapWaits.record(event);
      return committed;
    });
  }

  recordOutcome(
    project: IngestProject,
    outcome: "rate_limited" | "invalid" | "too_large" | "filtered" | "client_discard",
    reason: string,
    category: string,
    quantity: number,
  ) {
    this.deps.writer.record({ organizationId: project.organizationId, projectId: project.projectId, outcome, reason, category, quantity, at: new Date() });
  }
}
