import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Express } from "express";
import { requestId } from "../../src/server/http/request-id";
import { createLogger } from "../../src/server/logger";
import { restErrorHandler } from "../../src/server/rest/errors";
import { HttpSession } from "./http-session";

export interface ProbeApp {
  url: string;
  /** A session on the probe carrying `session`'s cookies (same user, same better-auth session). */
  as(session?: HttpSession): HttpSession;
  close(): Promise<void>;
}

/**
 * A test-only Express app on loopback with the product's request id, JSON parser and REST error
 * mapper around the routes `mount` adds: for seams no product route uses yet (the session-scoped
 * wrapper, error codes the next features will throw).
 */
export async function startProbeApp(mount: (app: Express) => void): Promise<ProbeApp> {
  const app = express();
  app.use(requestId);
  app.use(express.json({ limit: "100kb" }));
  mount(app);
  app.use(restErrorHandler(createLogger("silent")));
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    as(session) {
      const probe = new HttpSession(url);
      for (const [name, value] of session?.cookies ?? []) probe.cookies.set(name, value);
      return probe;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
