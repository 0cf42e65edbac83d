/**
 * Where AUTH_SECRET's sibling SECRETS_KEY comes from. Battery: a set key is used (and a malformed
 * one stops parseEnv naming SECRETS_KEY); a local install generates one into the data folder once
 * (owner-only file) and reuses it; memory:// gets a throwaway key; production refuses to start
 * without it, with the 'Invalid environment configuration' message (main.ts exits 1 on it).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidEnvironmentError, parseEnv } from "../env";
import { createSecretBox } from "../secrets/secret-box";
import { loadStartupEnvironment } from "../startup-environment";
import { resolveSecretsKeyring } from "./secret";

const KEY = "ab".repeat(32);
const dataDir = mkdtempSync(path.join(tmpdir(), "faultline-secrets-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("SECRETS_KEY", () => {
  it("uses the configured key and rejects a malformed one by name", () => {
    const ring = resolveSecretsKeyring(parseEnv({ SECRETS_KEY: `2:${KEY}`, PGLITE_DATA_DIR: dataDir }));
    expect(ring.current.version).toBe(2);
    expect(ring.current.key.toString("hex")).toBe(KEY);
    expect(() => parseEnv({ SECRETS_KEY: "short" })).toThrow(InvalidEnvironmentError);
    expect(() => parseEnv({ SECRETS_KEY: "short" })).toThrow(/SECRETS_KEY: must be 64 hex characters/);
  });

  it("generates a local key once into the data folder and reuses it", () => {
    const env = parseEnv({ PGLITE_DATA_DIR: dataDir });
    const first = resolveSecretsKeyring(env);
    const file = path.join(dataDir, "secrets-key");
    expect(readFileSync(file, "utf8")).toMatch(/^1:[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o077).toBe(0);
    const sealed = createSecretBox(first).seal("kept", { owner: "o", purpose: "p", field: "f" });
    expect(createSecretBox(resolveSecretsKeyring(env)).open(sealed, { owner: "o", purpose: "p", field: "f" })).toBe("kept");
    const memory = parseEnv({ PGLITE_DATA_DIR: "memory://" });
    expect(resolveSecretsKeyring(memory).current.key.equals(resolveSecretsKeyring(memory).current.key)).toBe(false);
  });

  it("is required in production", () => {
    const env = parseEnv({ NODE_ENV: "production", AUTH_SECRET: "x".repeat(32), PGLITE_DATA_DIR: dataDir });
    expect(() => resolveSecretsKeyring(env)).toThrow("SECRETS_KEY: required when NODE_ENV is production");
    expect(resolveSecretsKeyring({ ...env, SECRETS_KEY: KEY }).current.version).toBe(1);

    // What main.ts checks before it opens the database (env.test.ts proves such an error exits 1).
    const production = {
      NODE_ENV: "production",
      AUTH_SECRET: "x".repeat(32),
      // Mail links are the other production requirement; this check is about SECRETS_KEY alone.
      MAIL_LOG_LINKS: "true",
      PGLITE_DATA_DIR: "memory://",
    };
    expect(() => loadStartupEnvironment(production)).toThrow(InvalidEnvironmentError);
    expect(() => loadStartupEnvironment(production)).toThrow(/^Invalid environment configuration\n[\s\S]*SECRETS_KEY: required when NODE_ENV is production/);
    expect(loadStartupEnvironment({ ...production, SECRETS_KEY: KEY }).keyring.current.version).toBe(1);
  });
});
