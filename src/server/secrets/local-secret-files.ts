import { existsSync } from "node:fs";
import path from "node:path";

/** The files a local (trial) install keeps its generated secrets in, inside PGLITE_DATA_DIR. */
export const LOCAL_SECRET_FILES = { AUTH_SECRET: "auth-secret", SECRETS_KEY: "secrets-key" } as const;
export type LocalSecretName = keyof typeof LOCAL_SECRET_FILES;

/** Where a local install keeps `name`, or null for an in-memory database (nothing is kept). */
export function localSecretFile(dataDir: string, name: LocalSecretName): string | null {
  if (dataDir.startsWith("memory://")) return null;
  return path.resolve(dataDir, LOCAL_SECRET_FILES[name]);
}

const GENERATE: Record<LocalSecretName, { command: string; keeps: string }> = {
  AUTH_SECRET: { command: "AUTH_SECRET=$(openssl rand -hex 32)", keeps: "sessions depend on it" },
  SECRETS_KEY: { command: "SECRETS_KEY=1:$(openssl rand -hex 32)", keeps: "sealed credentials depend on it" },
};

/**
 * How to supply a production secret a trial generated for itself. Moving a trial's data folder to
 * production, the working value is the file the trial wrote: a new one would not open what the
 * trial sealed (SECRETS_KEY) or would sign everyone out (AUTH_SECRET).
 */
export function missingSecretFix(dataDir: string, name: LocalSecretName): string {
  const file = localSecretFile(dataDir, name);
  if (file && existsSync(file)) {
    const kept = name === "SECRETS_KEY" ? "the key that seals its stored credentials" : "the secret its sessions are signed with";
    return `the trial's ${name === "SECRETS_KEY" ? "working key" : "secret"} (${kept}) is in ${file}: pass it as ${name}="$(cat ${file})" and keep a copy outside the data folder`;
  }
  return `generate one with ${GENERATE[name].command} and keep it (${GENERATE[name].keeps})`;
}
