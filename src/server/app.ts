import type { RequestListener, Server } from "node:http";
import { toNodeHandler } from "better-auth/node";
import { createExpressMiddleware } from "@trpc/server/adapters/express";
import express, { type Express } from "express";
import { createAlerts, type AlertsDeps } from "./alerts/alerts.module";
import type { Auth } from "./auth/auth";
import type { Mailer } from "./auth/mailer";
import { outboxRoutes } from "./auth/outbox.routes";
import { faviconRoutes } from "./http/favicon";
import { createRequestContext, type AppServices } from "./context";
import type { Database } from "./db/client";
import type { Env } from "./env";
import { authAliases } from "./http/auth-aliases";
import { authErrorPage } from "./http/auth-error-page";
import { authErrors } from "./http/auth-errors";
import { bodyLimit, bufferedBody } from "./http/body-limit";
import { clientIpForAuth } from "./http/client-ip";
import { mountClient, type ClientMode } from "./http/client-app";
import { originCheck } from "./http/origin-check";
import { requestId } from "./http/request-id";
import { requestLog } from "./http/request-log";
import { securityHeaderList, securityHeaders } from "./http/security-headers";
import type { Logger } from "./logger";
import { createIngest, type IngestModule } from "./ingest/ingest.module";
import { billingWebhookRoute } from "./billing/billing-webhook.route";
import { organizationPlan, plansApply } from "./billing/organization-plan";
import { planLimits } from "./billing/billing-plans";
import { UsageQuota } from "./billing/usage-quota";
import { usageNoticeSender } from "./billing/usage-notices";
import type { RateCounterStore } from "./ingest/http/rate-counter.store";
import { JobQueue } from "./jobs/job-queue";
import { JOBS } from "./jobs/job-registry";
import { sourceMapJobHandlers } from "./sourcemaps/source-map-jobs";
import { deletionJobHandlers } from "./deletions/deletion-jobs";
import { FIRST_MAINTENANCE_DELAY_MS, maintenanceJobHandlers, scheduleMaintenance } from "./retention/maintenance-jobs";
import { resolveSecretsKeyring } from "./auth/secret";
import { createSecretBox, type SecretBox } from "./secrets/secret-box";
import { apiNotFound, restErrorHandler } from "./rest/errors";
import { mcpRoutes } from "./mcp/mcp.routes";
import { CHUNK_UPLOAD_PATH, sentryApiRoutes } from "./sentry-api/sentry-api.routes";
import { createV1Router } from "./composition/v1.router";
import { appRouter } from "./composition/trpc.router";
import { MAX_TRPC_BATCH } from "../shared/trpc-batch";
import { metricsRoute } from "./metrics/metrics.route";
import { createScrapeMetrics } from "./metrics/scrape-metrics";
import { createReadReplica } from "./db/read-replica";
import { readAfterWrite } from "./http/read-after-write";

/** The outside-system slots are optional (absent until configured) and owned by the caller, which closes them. */
export interface AppDeps extends Pick<AppServices, "modelProvider" | "waf" | "billing"> {
  /** A queue of the caller's own (tests); the app runs a database queue when absent. */
  jobs?: AppServices["jobs"];
  env: Env;
  database: Database;
  auth: Auth;
  mailer: Mailer;
  logger: Logger;
  /** Seals alert action URLs and signing secrets; built from SECRETS_KEY when absent. */
  secretBox?: SecretBox;
  /** Alerts' outbound client and spike-check pace (tests point them at loopback stand-ins). */
  alertOptions?: Pick<AlertsDeps, "outbound" | "frequencyCheckMs" | "factsSweep">;
  /** Overrides env.clientMode (tests). */
  client?: ClientMode | "none";
  /** The server this app will listen on; Vite's hot reload shares its port (`npm run dev`). */
  httpServer?: Server;
}

export interface App {
  /** The whole product as one node:http request listener: ingest first, then Express. */
  listener: RequestListener;
  app: Express;
  ingest: IngestModule;
  /** What the handlers were given (tests build typed callers over the same services). */
  services: AppServices;
  close(): Promise<void>;
}

/** The Express wiring, in the one order docs/architecture.md describes. */
export async function createApp(deps: AppDeps): Promise<App> {
  const { env, database, auth, mailer, logger, modelProvider, waf, billing, jobs } = deps;
  const trustedOrigins = [env.API_URL.replace(/\/$/, ""), ...env.TRUSTED_ORIGINS];
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);

  // 1. security headers, request id, one log line per request (ingest writes the same itself)
  const headerOptions = { development: !env.isProduction, https: env.API_URL.startsWith("https://") };
  app.use(securityHeaders(headerOptions));
  app.use(requestId);
  app.use(requestLog(logger));
  // The source-map chunk upload reads its own, larger body (sentry-api/, ARTIFACT_LIMITS.maxRequestSize).
  app.use(bodyLimit(undefined, CHUNK_UPLOAD_PATH));

  app.use(faviconRoutes());
  app.get("/api/health", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/api/ready", async (_req, res) => {
    try {
      await database.ping();
      res.json({ status: "ready", database: database.kind });
    } catch {
      res.setHeader("Retry-After", "5");
      res.status(503).json({ status: "unavailable", database: database.kind });
    }
  });

  // 2. ingest: own body reader and limits, CORS *, no session or cookies. It is the hot path, so
  //    it answers on the raw request ahead of Express (see `listener` below).
  // The plans' monthly quotas apply on the hosted deployment only; self-hosted ingest pays nothing for them.
  const quotaOver = plansApply(env)
    ? (counters: RateCounterStore) =>
        new UsageQuota({
          counters,
          planOf: (organizationId) => organizationPlan(database.db, organizationId),
          quotaOf: (plan) => planLimits(env, plan).monthlyEvents,
          notice: usageNoticeSender({ db: database.db, mailer, logger, apiUrl: env.API_URL }),
          logger,
        })
    : undefined;
  const ingest = createIngest(env, database, logger, securityHeaderList(headerOptions), quotaOver);
  // DATABASE_READ_URL: a standby for lag-tolerant reads (PGlite has none, so it is ignored there).
  const readReplica =
    env.DATABASE_READ_URL && database.kind === "postgres"
      ? createReadReplica({
          url: env.DATABASE_READ_URL,
          primary: database,
          maxLagSeconds: env.READ_REPLICA_MAX_LAG_SECONDS,
          logger: logger.child({ component: "read-replica" }),
        })
      : undefined;
  if (env.DATABASE_READ_URL && !readReplica) logger.warn("DATABASE_READ_URL ignored: it is a standby of DATABASE_URL, and DATABASE_URL is not set");
  // Prometheus: not tenant data, not under /api; guarded by METRICS_TOKEN or loopback (metrics-guard.ts).
  const scrapeMetrics = createScrapeMetrics(database, Object.keys(JOBS), readReplica);
  app.use(metricsRoute(scrapeMetrics, { token: env.METRICS_TOKEN, trustedHops: env.TRUST_PROXY, logger }));
  // Background work: the database job queue (on PGlite and PostgreSQL alike), unless the caller brought one.
  const jobQueue = jobs ?? new JobQueue(JOBS, database.db, logger.child({ component: "jobs" }), { pollMs: env.ALERT_JOB_POLL_MS });
  const ownJobs = jobQueue === jobs ? null : jobQueue;
  const secretBox = deps.secretBox ?? createSecretBox(resolveSecretsKeyring(env));
  const alerts = createAlerts({ env, db: database.db, jobs: jobQueue, mailer, secretBox, logger, ...deps.alertOptions });
  // One handler per job of the registry: a new job does not compile until its module's handlers are here.
  jobQueue.work({
    ...alerts.jobHandlers,
    ...sourceMapJobHandlers({
      db: database.db,
      env,
      logger,
      keys: ingest.keys,
      symbolicator: ingest.service.deps.symbolicator,
      waits: ingest.service.deps.sourceMapWaits,
    }),
    ...deletionJobHandlers({
      db: database.db,
      logger: logger.child({ component: "deletions" }),
      projectDeleted: (projectId) => ingest.keys.projectDeleted(projectId),
    }),
    ...maintenanceJobHandlers({ db: database.db, env, logger: logger.child({ component: "maintenance" }), jobs: jobQueue }),
  });
  // Partitions ahead and retention, once per cluster every MAINTENANCE_INTERVAL_MINUTES.
  await scheduleMaintenance(jobQueue, env, FIRST_MAINTENANCE_DELAY_MS).catch((error: unknown) => logger.warn("maintenance not scheduled", { err: error }));
  // Alerts learn of new and regressed issues after each ingest commit, without ingest waiting.
  ingest.onCommitted((facts) => alerts.handOff.accept(facts));
  // Revoking a key or deleting a project drops it from this process's ingest key cache at once.
  const services: AppServices = {
    env,
    db: database.db,
    readDb: database.db,
    readReplica,
    auth,
    logger,
    mailer,
    modelProvider,
    waf,
    billing,
    jobs: jobQueue,
    secretBox,
    alerts,
    keyRevocations: ingest.keys,
    dataSettingsChanges: ingest.dataSettings,
  };

  // A caller's reads right after their own write (or inside it) see it: the primary serves them.
  if (readReplica) app.use("/api", readAfterWrite({ windowSeconds: env.READ_REPLICA_MAX_LAG_SECONDS, secure: env.API_URL.startsWith("https://") }));

  // 3. better-auth, before any JSON body parser (it reads the raw request itself).
  //    The error page is the product's own; a few spec names are rewritten to better-auth's.
  app.get("/api/auth/error", authErrorPage);
  app.all("/api/auth/{*path}", clientIpForAuth, bufferedBody(), authAliases, toNodeHandler(auth), authErrors);

  // Payment webhooks, before the origin check and the JSON parser: the signature covers the raw bytes.
  app.use(
    billingWebhookRoute(
      billing && plansApply(env) ? { db: database.db, provider: billing, logger, planChanged: (id) => ingest.quota?.planChanged(id) } : null,
      logger,
    ),
  );

  // 4. JSON APIs. The Sentry tool API (sentry-cli, bundler plugins) first: Bearer tokens only, so no
  //    origin check, its own body parsers and Sentry's error shape, before the /api 404.
  app.use("/api/0", sentryApiRoutes(services));
  if (env.devOutbox) app.use(outboxRoutes(mailer, env.TRUST_PROXY));
  app.use(["/api/trpc", "/api/v1"], originCheck(trustedOrigins));
  app.use(express.json({ limit: "100kb" }));
  app.use(
    "/api/trpc",
    createExpressMiddleware({
      router: appRouter,
      maxBatchSize: MAX_TRPC_BATCH,
      createContext: ({ req }) => createRequestContext(services, req),
    }),
  );
  app.use("/api/v1", createV1Router(services));
  // Bearer tokens only (no cookies), so the browser origin check does not apply.
  app.use("/api/mcp", mcpRoutes(services));
  app.use("/api", apiNotFound);
  app.use(restErrorHandler(logger));

  // 5. the client
  const clientMode = deps.client ?? env.clientMode;
  const closeClient =
    clientMode === "none" ? async () => {} : await mountClient(app, clientMode, { logger, httpServer: deps.httpServer, dataDir: env.PGLITE_DATA_DIR });

  return {
    listener: (req, res) => {
      if (!ingest.handle(req, res)) app(req, res);
    },
    app,
    ingest,
    services,
    close: async () => {
      await ingest.close();
      // After ingest's last commit, its alert hand-offs are written; then running jobs finish.
      await alerts.close();
      await ownJobs?.close();
      await closeClient();
      scrapeMetrics.close();
      await readReplica?.close();
    },
  };
}
