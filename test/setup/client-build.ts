import { spawnSync } from "node:child_process";
import { staleReason } from "../../src/server/http/client-build-stamp";

/**
 * The browser project serves dist/client: build it once, before its first suite, when it is
 * missing or older than its sources — the PostgreSQL pass after the PGlite one finds it current.
 * `npm run build` runs in its own process, without vitest's variables: vite.config.ts drops the
 * client plugins under VITEST, and NODE_ENV=test (which vitest sets) makes React's JSX transform
 * the development one, with source paths in the bundle.
 */
export default function setup() {
  const reason = staleReason();
  if (!reason) return;
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST") && name !== "NODE_ENV" && name !== "TEST"));
  const build = spawnSync("npm", ["run", "--silent", "build"], { env, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`npm run build failed (${reason}): exit ${build.status ?? build.signal}`);
}
