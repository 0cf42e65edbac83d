import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database } from "../db/client";
import type { Env } from "../env";
import type { Logger } from "../logger";
import { ensureCurrentPartitions } from "../retention/current-partitions";
import { BatchWriter, DEFAULT_MAX_BATCH_BYTES, type CommittedListener } from "./store/batch-writer";
import { createClient } from "@redis/client";
import { IngestRateLimiter } from "./http/ingest-rate-limit";
import { DatabaseRateCounterStore, RedisRateCounterStore, type RateCounterStore } from "./http/rate-counter.store";
import { IngestService } from "./ingest.service";
import { createIngestRouter } from "./http/ingest-dispatcher";
import { nativeIngestHandlers } from "./native/native.routes";
import { PayloadWorkers } from "./prepare/payload-workers";
import { ProjectKeyCache } from "./project-key.cache";
import { DataSettingsCache } from "../data-settings/data-settings.cache";
import { resolveAuthSecret } from "../auth/secret";
import { sentryIngestHandlers } from "./sentry/sentry.routes";
import type { UsageQuota } from "../billing/usage-quota";
import { createEventSymbolicator } from "../sourcemaps/event-symbolicator";
import { databaseSourceMapStore } from "../sourcemaps/database-source-map-store";
import { SourceMapWaits } from "../sourcemaps/source-map-waits";

export interface IngestModule {
  /** Serves the request when it is an ingest endpoint; false hands it on to the rest of the app. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  service: IngestService;
  /** The key cache, told by the project service when keys are revoked or projects deleted. */
  keys: ProjectKeyCache;
  /** Each project's data settings for scrubbing; told of changes by the settings verbs (AppServices.dataSettingsChanges). */
  dataSettings: DataSettingsCache;
  /** The plans' monthly quotas, when they apply (hosted deployment). */
  quota?: UsageQuota;
  /** The batch writer's after-commit hand-off (alerts); set once by createApp. */
  onCommitted(listener: CommittedListener): void;
  /** Flushes pending batches; called on SIGTERM before the database closes. */
  close(): Promise<void>;
}

/** Builds the SDK-facing write path from the parsed env: limits, key cache, rate limiter, batch writer. */
export function createIngest(
  env: Env,
  database: Database,
  logger: Logger,
  securityHeaders: [string, string][],
  /** Builds the plan quota over the shared counters (hosted deployment only; billing/usage-quota.ts). */
  quotaOver?: (counters: RateCounterStore) => UsageQuota,
): IngestModule {
  const ingestLogger = logger.child({ component: "ingest" });
  const rateLimited = env.INGEST_PROJECT_RATE_LIMIT > 0 || env.INGEST_KEY_RATE_LIMIT > 0 || env.INGEST_KEY_BYTE_RATE_LIMIT > 0;
  const counters: RateCounterStore =
    env.REDIS_URL && rateLimited
      ? new RedisRateCounterStore(createClient({ url: env.REDIS_URL }) as unknown as ConstructorParameters<typeof RedisRateCounterStore>[0])
      : new DatabaseRateCounterStore(database.db);
  const writer = new BatchWriter(database, ingestLogger, {
    maxBatch: 1000,
    maxQueue: 20_000,
    maxInFlight: database.kind === "postgres" ? env.INGEST_COMMIT_CONCURRENCY : 1,
    // PGlite stores in this thread at ≈ 4 MB/s of large documents: a smaller batch is a shorter
    // hold of the event loop (bench/README.md, bench:stall).
    maxBatchBytes: database.kind === "postgres" ? DEFAULT_MAX_BATCH_BYTES : 256 * 1024,
    databaseInThread: database.kind !== "postgres",
    tagFlushMs: 1000,
    ensurePartitions: (days) => ensureCurrentPartitions(database.db, days),
  });
  const keys = new ProjectKeyCache(database.db);
  const dataSettings = new DataSettingsCache(database.db, resolveAuthSecret(env));
  // The quota counts in the same shared store as the rate limits (Redis when configured for them, else the database).
  const quota = quotaOver?.(rateLimited && env.REDIS_URL ? counters : new DatabaseRateCounterStore(database.db));
  const service = new IngestService({
    keys,
    dataSettings,
    writer,
    rateLimiter: new IngestRateLimiter(
      counters,
      {
        windowSeconds: env.INGEST_RATE_LIMIT_WINDOW_SECONDS,
        perProject: env.INGEST_PROJECT_RATE_LIMIT,
        perKey: env.INGEST_KEY_RATE_LIMIT,
        bytesPerKey: env.INGEST_KEY_BYTE_RATE_LIMIT,
      },
      ingestLogger,
    ),
    limits: {
      maxCompressedBytes: env.INGEST_MAX_COMPRESSED_BYTES,
      maxDecompressedBytes: env.INGEST_MAX_DECOMPRESSED_BYTES,
      maxEventBytes: env.INGEST_MAX_EVENT_BYTES,
      maxItems: env.INGEST_MAX_ITEMS,
      maxJsonDepth: env.INGEST_MAX_JSON_DEPTH,
    },
    logger: ingestLogger,
    quota,
    payloads: env.INGEST_WORKERS > 0 ? new PayloadWorkers(env.INGEST_WORKERS, ingestLogger) : undefined,
    symbolicator: createEventSymbolicator(databaseSourceMapStore({ db: database.db, env }), ingestLogger),
    sourceMapWaits: new SourceMapWaits({ db: database.db, logger: ingestLogger }),
  });
  const handle = createIngestRouter({
    sentry: sentryIngestHandlers(service, ingestLogger),
    native: nativeIngestHandlers(service, ingestLogger),
    securityHeaders,
    logger,
    trustedProxyHops: env.TRUST_PROXY,
  });
  return {
    handle,
    service,
    keys,
    dataSettings,
    quota,
    onCommitted: (listener) => {
      writer.onCommitted = listener;
    },
    close: async () => {
      // Bodies the workers still hold are prepared inline, then committed with the rest.
      await service.deps.payloads?.close();
      await writer.close();
      await service.deps.symbolicator.close();
      await quota?.close();
      await counters.close();
    },
  };
}
