import { existsSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import type { Express } from "express";
import type { Logger } from "../logger";
import { BUILT_CLIENT, ROOT } from "./client-build-stamp";
import { viteLogger } from "./client-build";
import { serveBuiltClient } from "./client-static";

/**
 * Serves the React client: the built bundle with an SPA fallback (`npm start`, production), or
 * Vite's dev middleware with hot reload (`npm run dev`). Returns a closer for the Vite server.
 */
export type ClientMode = "vite" | "built";

export interface ClientOptions {
  logger: Logger;
  /** Vite's hot-reload socket shares this server's port; without it there is no hot reload. */
  httpServer?: Server;
  /** PGLITE_DATA_DIR: the database files and the generated auth-secret, never served. */
  dataDir: string;
}

function mountBuiltClient(app: Express) {
  if (!existsSync(path.join(BUILT_CLIENT, "index.html"))) {
    throw new Error("dist/client is missing: run `npm run build` before starting in production");
  }
  app.use(serveBuiltClient(BUILT_CLIENT));
}

async function mountViteClient(app: Express, options: ClientOptions) {
  const { createServer } = await import("vite");
  const dataDir = options.dataDir.startsWith("memory://") ? [] : [path.resolve(options.dataDir), path.resolve(options.dataDir, "**")];
  const vite = await createServer({
    configFile: path.join(ROOT, "vite.config.ts"),
    // vite.config.ts limits server.fs to the client sources; the configured data folder is
    // denied too, wherever it is. Without a server to share (tests), no hot-reload socket: several
    // servers would fight over a port of its own.
    server: {
      middlewareMode: true,
      hmr: Boolean(options.httpServer),
      ws: options.httpServer ? { server: options.httpServer } : false,
      fs: { deny: dataDir },
    },
    appType: "spa",
    customLogger: await viteLogger(options.logger),
  });
  app.use(vite.middlewares);
  return () => vite.close();
}

export async function mountClient(app: Express, mode: ClientMode, options: ClientOptions): Promise<() => Promise<void>> {
  if (mode === "built") {
    mountBuiltClient(app);
    return async () => {};
  }
  return mountViteClient(app, options);
}
