import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { InvalidEnvironmentError, type Env } from "../env";
import { generateSecretsKey, parseKeyring, type Keyring } from "../secrets/keyring";
import { LOCAL_SECRET_FILES, missingSecretFix } from "../secrets/local-secret-files";

/** Reads a secret kept beside the local data, creating it once with `generate` when missing. */
function localSecret(env: Env, fileName: string, generate: () => string): string {
  if (env.PGLITE_DATA_DIR.startsWith("memory://")) return generate();
  const file = path.resolve(env.PGLITE_DATA_DIR, fileName);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = generate();
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * AUTH_SECRET signs sessions and tokens. Production must set it (env.ts enforces that); a local
 * install gets one generated once and kept beside its data, so sessions survive restarts.
 */
export function resolveAuthSecret(env: Env): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  return localSecret(env, LOCAL_SECRET_FILES.AUTH_SECRET, () => randomBytes(32).toString("hex"));
}

/**
 * SECRETS_KEY seals third-party credentials at rest. A local install gets one generated once into
 * the data folder, like AUTH_SECRET. Production must set it: a generated key would live on one
 * replica's disk, and losing it loses every sealed credential. Checked at start-up (env.ts startupProblems)
 * rather than in parseEnv, which keeps accepting production settings written before this key.
 */
export function resolveSecretsKeyring(env: Env): Keyring {
  if (env.SECRETS_KEY) return parseKeyring(env.SECRETS_KEY);
  if (env.isProduction) {
    throw new InvalidEnvironmentError([`SECRETS_KEY: required when NODE_ENV is production; ${missingSecretFix(env.PGLITE_DATA_DIR, "SECRETS_KEY")}`]);
  }
  return parseKeyring(localSecret(env, LOCAL_SECRET_FILES.SECRETS_KEY, () => generateSecretsKey()));
}
