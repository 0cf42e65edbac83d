import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Env } from "../env";

/**
 * AUTH_SECRET signs sessions and tokens. Production must set it (env.ts enforces that); a local
 * install gets one generated once and kept beside its data, so sessions survive restarts.
 */
export function resolveAuthSecret(env: Env): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (env.PGLITE_DATA_DIR.startsWith("memory://")) return randomBytes(32).toString("hex");
  const file = path.resolve(env.PGLITE_DATA_DIR, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
