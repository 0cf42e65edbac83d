import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { createApp } from "./app";
import { plansApply } from "./billing/organization-plan";
import { modelConfigurationProblem } from "./chat/model-provider";
import { createAuth } from "./auth/auth";
import { createMailer } from "./auth/mailer";
import { sealLegacyOAuthTokens } from "./auth/legacy-oauth-tokens";
import { resolveAuthSecret } from "./auth/secret";
import { createDatabase } from "./db/client";
import { NewerSchemaError } from "./db/migrations";
import { InvalidEnvironmentError } from "./env";
import { OUTBOX_PATH } from "./auth/outbox.routes";
import { ensureClientBuilt } from "./http/client-build";
import { limitHeapGrowth } from "./heap-tuning";
import { createLogger } from "./logger";
import { createWafIntegration } from "./integrations/waf/waf.module";
import { localSecretFile, missingSecretFix } from "./secrets/local-secret-files";
import { assertSealedSecretsOpen } from "./secrets/sealed-fields.check";
import { loadStartupEnvironment } from "./startup-environment";

function loadEnv(): ReturnType<typeof loadStartupEnvironment> {
  try {
    return loadStartupEnvironment();
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** What the progress line says about the database: never the URL, which may hold a password. */
function databaseLabel(databaseUrl: string | undefined, dataDir: string): string {
  if (databaseUrl) return "PostgreSQL (DATABASE_URL)";
  if (dataDir.startsWith("memory://")) return "embedded PGlite in memory";
  const folder = path.resolve(dataDir);
  if (existsSync(path.join(folder, "PG_VERSION"))) return `embedded PGlite in ${folder}`;
  return `embedded PGlite in ${folder} (first start: creating it takes a few seconds)`;
}

async function main() {
  const { env, keyring, secretBox } = loadEnv();
  // PGlite lives in this process, beside the heap; PostgreSQL mode keeps V8's faster default.
  if (!env.DATABASE_URL) limitHeapGrowth(env.NODE_OPTIONS);
  const logger = createLogger(env.LOG_LEVEL);
  // Progress lines: a first start (a new embedded database, every migration, the client build)
  // took 37 silent seconds before "faultline listening" (issue 37).
  const started = Date.now();
  logger.info("opening the database", { database: databaseLabel(env.DATABASE_URL, env.PGLITE_DATA_DIR) });
  const database = createDatabase({ databaseUrl: env.DATABASE_URL, pgliteDataDir: env.PGLITE_DATA_DIR });
  logger.info("applying database migrations");
  try {
    await database.migrate((message, fields) => logger.info(message, fields));
  } catch (error) {
    if (!(error instanceof NewerSchemaError)) throw error;
    // An old replica left in a rollout: say what to do, without a stack.
    process.stderr.write(`${error.message}\n`);
    await database.close();
    process.exit(1);
  }
  logger.info("database ready", { durationMs: Date.now() - started });
  try {
    await assertSealedSecretsOpen(database.db, keyring);
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    // A trial's data folder moved to production: its values open only with the key the trial wrote.
    const trialKey = localSecretFile(env.PGLITE_DATA_DIR, "SECRETS_KEY");
    const hint = !env.DATABASE_URL && trialKey && existsSync(trialKey) ? `\n  - SECRETS_KEY: ${missingSecretFix(env.PGLITE_DATA_DIR, "SECRETS_KEY")}` : "";
    process.stderr.write(`${error.message}${hint}\n`);
    await database.close();
    process.exit(1);
  }
  const sealedAccounts = await sealLegacyOAuthTokens(database.db, secretBox);
  if (sealedAccounts > 0) logger.info("sealed plaintext OAuth tokens", { accounts: sealedAccounts });
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, logger, keepOutbox: env.devOutbox, logLinks: env.MAIL_LOG_LINKS });
  // Stripe on the hosted deployment (env.ts refuses to start it without the keys); self-hosted has no billing.
  // Stripe's SDK, the AI SDK with its providers and the AWS SDK are imported only where they are
  // used: each holds 20-25 MB of memory that a server without them should not carry.
  const billing = plansApply(env) ? (await import("./billing/stripe-billing.provider")).createStripeBillingProvider(env) : undefined;
  const auth = createAuth({ env, db: database.db, mailer, logger, secret: resolveAuthSecret(env), secretBox, billing });
  // Production images are built beforehand (Dockerfile); elsewhere a missing or stale bundle is built now.
  if (env.clientMode === "built" && !env.isProduction) await ensureClientBuilt(logger);
  const server: Server = createServer();
  const waf = createWafIntegration(env, secretBox);
  const modelProvider = modelConfigurationProblem(env) ? undefined : (await import("./chat/model-factory")).createModelProvider(env);
  const { listener, close } = await createApp({ env, database, auth, mailer, logger, billing, waf, secretBox, modelProvider, httpServer: server });

  server.on("request", listener).listen(env.PORT, env.HOST, () => {
    logger.info("faultline listening", { url: env.API_URL, port: env.PORT, database: database.kind, mode: env.DEPLOYMENT_MODE });
    if (env.devOutbox) {
      // The outbox answers loopback clients only, so name the address that works on this machine.
      const url = `http://localhost:${env.PORT}${OUTBOX_PATH}`;
      logger.info(`no SMTP_URL: mails are kept at ${url}, reachable from this machine only`, { outbox: url });
    }
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    const timer = setTimeout(() => {
      logger.error("shutdown timed out; exiting");
      process.exit(1);
    }, env.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    // Stop accepting, let in-flight requests finish, then release the database.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await closed;
    await close();
    await database.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error) => {
  process.stderr.write(`Faultline failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
