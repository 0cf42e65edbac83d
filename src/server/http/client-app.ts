import { existsSync } from "node:fs";
import path from "node:path";
import express, { type Express } from "express";

const ROOT = path.join(import.meta.dirname, "../../..");
const BUILT_CLIENT = path.join(ROOT, "dist/client");

/**
 * Serves the React client: the built bundle with an SPA fallback in production, Vite's dev
 * middleware otherwise. Returns a closer for the Vite server so shutdown is clean.
 */
export type ClientMode = "vite" | "built";

export async function mountClient(app: Express, mode: ClientMode): Promise<() => Promise<void>> {
  if (mode === "built") {
    if (!existsSync(path.join(BUILT_CLIENT, "index.html"))) {
      throw new Error("dist/client is missing: run `npm run build` before starting in production");
    }
    app.use(express.static(BUILT_CLIENT, { index: false, maxAge: "1h" }));
    app.use((req, res, next) => {
      if (req.method !== "GET" || req.path.startsWith("/api/")) return next();
      res.sendFile(path.join(BUILT_CLIENT, "index.html"));
    });
    return async () => {};
  }
  const { createServer } = await import("vite");
  const vite = await createServer({
    configFile: path.join(ROOT, "vite.config.ts"),
    // No HMR socket: several servers (tests, replicas) would fight over its port.
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: "spa",
    logLevel: "warn",
  });
  app.use(vite.middlewares);
  return () => vite.close();
}
