import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "../../src/server/app";
import { createAuth, type Auth } from "../../src/server/auth/auth";
import type { IngestModule } from "../../src/server/ingest/ingest.module";
import { createMailer, type Mailer } from "../../src/server/auth/mailer";
import { parseEnv, type Env } from "../../src/server/env";
import { createLogger, type LogLevel } from "../../src/server/logger";
import { createTestDatabase, type TestDatabase } from "./test-database";

export interface TestServer {
  url: string;
  env: Env;
  database: TestDatabase;
  auth: Auth;
  mailer: Mailer;
  ingest: IngestModule;
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
    ...options.env,
  });
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger(env.LOG_LEVEL, (line) => {
    logs.push(JSON.parse(line));
    if (process.env.TEST_LOG_STDOUT) process.stdout.write(line);
  });
  const database = options.database ?? (await createTestDatabase());
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, logger, keepOutbox: true, logLinks: env.MAIL_LOG_LINKS });
  const auth = createAuth({ env, db: database.db, mailer, logger, secret: "test-secret-test-secret-test-secret-0123" });
  const app = await createApp({ env, database, auth, mailer, logger, client: options.serveClient ? "built" : "none" });
  server.on("request", app.listener);
  return {
    url,
    env,
    database,
    auth,
    mailer,
    ingest: app.ingest,
    logs,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      if (!options.database) await database.destroy();
    },
  };
}
