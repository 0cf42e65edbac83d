import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp, type AppDeps } from "../../src/server/app";
import { createAuth, type Auth } from "../../src/server/auth/auth";
import type { AppServices } from "../../src/server/context";
import type { IngestModule } from "../../src/server/ingest/ingest.module";
import { createMailer, type Mailer } from "../../src/server/auth/mailer";
import { parseEnv, type Env } from "../../src/server/env";
import { createLogger, type LogLevel } from "../../src/server/logger";
import { parseKeyring } from "../../src/server/secrets/keyring";
import { createSecretBox } from "../../src/server/secrets/secret-box";
import { createTestDatabase, type TestDatabase } from "./test-database";

export const TEST_SECRETS_KEY = `1:${"5e".repeat(32)}`;

export interface TestServer {
  url: string;
  env: Env;
  database: TestDatabase;
  auth: Auth;
  mailer: Mailer;
  ingest: IngestModule;
  /** The services the app's handlers were given (typed callers and test-only routers use them). */
  services: AppServices;
  /** Log lines written by the server, parsed. */
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Extra environment variables, as a real deployment would set them. */
  env?: Record<string, string>;
  /** Serve the built React client (browser tests; `npm test` builds it first). */
  serveClient?: boolean;
  /** Reuse a database (e.g. to restart the app on the same data). */
  database?: TestDatabase;
  /** Outside-system clients for the app's service slots (real clients pointed at loopback stand-ins). */
  outside?: Pick<AppDeps, "modelProvider" | "waf" | "billing" | "jobs" | "alertOptions">;
}

/**
 * Starts the real app on an ephemeral port. The port is bound first because API_URL (and so
 * better-auth's base URL and trusted origin) must name it.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://localhost:${port}`;
  const env = parseEnv({
    NODE_ENV: "test",
    API_URL: url,
    PGLITE_DATA_DIR: "memory://",
    LOG_LEVEL: (process.env.TEST_LOG_LEVEL as LogLevel | undefined) ?? "info",
    DEV_OUTBOX: "true",
    // A test's own data (often dated long ago) is not for the hourly retention run; tests run it themselves.
    MAINTENANCE_INTERVAL_MINUTES: "0",
    ...options.env,
  });
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger(env.LOG_LEVEL, (line) => {
    logs.push(JSON.parse(line));
    if (process.env.TEST_LOG_STDOUT) process.stdout.write(line);
  });
  const database = options.database ?? (await createTestDatabase());
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, logger, keepOutbox: true, logLinks: env.MAIL_LOG_LINKS });
  // Fixed, so an app restarted on the same database (options.database) still opens what it sealed.
  const secretBox = createSecretBox(parseKeyring(env.SECRETS_KEY ?? TEST_SECRETS_KEY));
  const auth = createAuth({
    env,
    db: database.db,
    mailer,
    logger,
    secret: "test-secret-test-secret-test-secret-0123",
    secretBox,
    billing: options.outside?.billing,
  });
  const app = await createApp({ env, database, auth, mailer, logger, secretBox, ...options.outside, client: options.serveClient ? "built" : "none" });
  server.on("request", app.listener);
  return {
    url,
    env,
    database,
    auth,
    mailer,
    ingest: app.ingest,
    services: app.services,
    logs,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      if (!options.database) await database.destroy();
    },
  };
}
