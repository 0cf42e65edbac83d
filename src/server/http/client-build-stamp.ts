import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Whether dist/client still matches its sources. `npm run build` writes the stamp after Vite has
 * written the bundle; `npm start` rebuilds when the stamp is missing, differs, or is older than
 * any input (a bare `vite build` leaves no stamp, so the next start builds once more).
 */
export const ROOT = path.resolve(import.meta.dirname, "../../..");
export const BUILT_CLIENT = path.join(ROOT, "dist/client");
const STAMP_NAME = ".faultline-build.json";
// Bump when the build output changes shape, so an older dist/client is rebuilt.
const STAMP_FORMAT = 2; // 2: the .br and .gz siblings (client-precompress.ts)

/** What the client is built from: its sources, the shared code it imports, the build config. */
const INPUTS = ["src/client", "src/shared", "public", "vite.config.ts", "package-lock.json"];

function stampContent(root: string): string {
  const lock = path.join(root, "package-lock.json");
  const dependencies = existsSync(lock) ? createHash("sha256").update(readFileSync(lock)).digest("hex") : "none";
  return JSON.stringify({ format: STAMP_FORMAT, dependencies });
}

/** The newest modification time under the inputs (the router plugin's generated file included). */
function newestInput(root: string): number {
  let newest = 0;
  const visit = (entry: string) => {
    if (!existsSync(entry)) return;
    const stats = statSync(entry);
    if (stats.isDirectory()) {
      for (const name of readdirSync(entry)) visit(path.join(entry, name));
    } else newest = Math.max(newest, stats.mtimeMs);
  };
  for (const input of INPUTS) visit(path.join(root, input));
  return newest;
}

/** `root` is the repository (tests pass a copy of its shape). */
export function writeBuildStamp(root = ROOT): void {
  writeFileSync(path.join(root, "dist/client", STAMP_NAME), stampContent(root));
}

/** Why dist/client must be (re)built, or null when it is current. */
export function staleReason(root = ROOT): string | null {
  const stamp = path.join(root, "dist/client", STAMP_NAME);
  if (!existsSync(path.join(root, "dist/client/index.html"))) return "dist/client is missing";
  if (!existsSync(stamp)) return "dist/client has no build stamp";
  if (readFileSync(stamp, "utf8") !== stampContent(root)) return "dependencies changed since the last build";
  if (newestInput(root) > statSync(stamp).mtimeMs) return "client sources changed since the last build";
  return null;
}
