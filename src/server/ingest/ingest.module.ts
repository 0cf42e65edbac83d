import type { Router } from "express";
import { Router as createRouter } from "express";
import type { Database } from "../db/client";
import type { Env } from "../env";
import type { Logger } from "../logger";
import { BatchWriter } from "./batch-writer";
import { createClient } from "@redis/client";
import { IngestRateLimiter } from "./ingest-rate-limit";
import { DatabaseRateCounterStore, RedisRateCounterStore, type RateCounterStore } from "./rate-counter.store";
import { IngestService } from "./ingest.service";
import { nativeIngestRoutes } from "./native.routes";
import { ProjectKeyCache } from "./project-key.cache";
import { sentryIngestRoutes } from "./sentry.routes";

export interface IngestModule {
  routes: Router;
  service: IngestService;
  /** Flushes pending batches; called on SIGTERM before the database closes. */
  close(): Promise<void>;
}

/** Builds the SDK-facing write path from the parsed env: limits, key cache, rate limiter, batch writer. */
export function createIngest(env: Env, database: Database, logger: Logger): IngestModule {
  const ingestLogger = logger.child({ component: "ingest" });
  const rateLimited = env.INGEST_PROJECT_RATE_LIMIT > 0 || env.INGEST_KEY_RATE_LIMIT > 0;
  const counters: RateCounterStore =
    env.REDIS_URL && rateLimited ? new RedisRateCounterStore(createClient({ url: env.REDIS_URL }) as unknown as ConstructorParameters<typeof RedisRateCounterStore>[0]) : new DatabaseRateCounterStore(database.db);
  const writer = new BatchWriter(database.db, ingestLogger, {
    maxBatch: 1000,
    maxQueue: 20_000,
    maxInFlight: database.kind === "postgres" ? env.INGEST_COMMIT_CONCURRENCY : 1,
  });
  const service = new IngestService({
    keys: new ProjectKeyCache(database.db),
    writer,
    rateLimiter: new IngestRateLimiter(
      counters,
      { windowSeconds: env.INGEST_RATE_LIMIT_WINDOW_SECONDS, perProject: env.INGEST_PROJECT_RATE_LIMIT, perKey: env.INGEST_KEY_RATE_LIMIT },
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
  });
  const routes = createRouter();
  routes.use(sentryIngestRoutes(service, ingestLogger));
  routes.use(nativeIngestRoutes(service, database.db, ingestLogger));
  return {
    routes,
    service,
    close: async () => {
      await writer.close();
      await counters.close();
    },
  };
}
