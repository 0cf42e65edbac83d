import { spawn } from "node:child_process";
import path from "node:path";
import type { Logger as ViteLogger } from "vite";
import type { Logger } from "../logger";
import { BUILT_CLIENT, ROOT, staleReason, writeBuildStamp } from "./client-build-stamp";
import { precompressDirectory } from "./client-precompress";

/** Vite's messages as our JSON lines (its own logger prints coloured, multi-line text). */
export async function viteLogger(logger: Logger): Promise<ViteLogger> {
  const { createLogger } = await import("vite");
  const base = createLogger("warn");
  const warn = (msg: string) => logger.warn("vite", { detail: msg });
  return {
    ...base,
    info: () => {},
    warn,
    warnOnce: warn,
    error: (msg, options) => logger.error("vite", { detail: msg, err: options?.error }),
    clearScreen: () => {},
  };
}

/**
 * Builds the minified client into dist/client, writes each text file's `.br` and `.gz` siblings
 * (client-precompress.ts), then stamps it (see client-build-stamp.ts).
 */
export async function buildClient(logger: Logger): Promise<void> {
  const { build } = await import("vite");
  await build({ configFile: path.join(ROOT, "vite.config.ts"), customLogger: await viteLogger(logger), logLevel: "warn", mode: "production" });
  const compressed = await precompressDirectory(BUILT_CLIENT);
  logger.info("client precompressed", { ...compressed });
  writeBuildStamp();
}

/** `npm run build`'s entry point, which the server also runs to build a missing client. */
const BUILD_ENTRY = path.join(ROOT, "src/server/build-client.ts");

/**
 * `npm start` serves the built client; build it first when it is missing or older than its
 * sources, so a fresh checkout (or a `git pull`) needs no separate build step. The build runs in a
 * child process (`npm run build`'s entry point): in the server's own process Vite, rolldown and
 * the plugins left the server holding about 1.1 GB for as long as it ran (issue 37). The child's
 * JSON lines go to the same output. `root` and `entry` are the repository and the builder (tests
 * pass a scratch copy of the shape and a builder of their own).
 */
export async function ensureClientBuilt(logger: Logger, { root = ROOT, entry = BUILD_ENTRY }: { root?: string; entry?: string } = {}): Promise<void> {
  const reason = staleReason(root);
  if (!reason) return;
  logger.info("building the client (first start or changed sources; this takes a minute)", { reason });
  const started = Date.now();
  const child = spawn(process.execPath, ["--import", "tsx", entry], { cwd: root, env: process.env, stdio: ["ignore", "inherit", "inherit"] });
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal }));
  });
  if (code !== 0) throw new Error(`the client build failed (exit ${code ?? signal}); run \`npm run build\` to see why`);
  logger.info("client built", { durationMs: Date.now() - started, builderPid: child.pid });
}
