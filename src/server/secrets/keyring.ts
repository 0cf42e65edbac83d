import { randomBytes } from "node:crypto";

/** One AES-256 key and the version written in front of everything it seals. */
export interface SecretKey {
  version: number;
  key: Buffer;
}

/** The key that seals new values (the first one listed) and every key that may still open old ones. */
export interface Keyring {
  current: SecretKey;
  byVersion: ReadonlyMap<number, SecretKey>;
}

const ENTRY = /^(?:(\d{1,6}):)?([0-9a-f]{64})$/i;

/** What SECRETS_KEY looks like, for error messages. */
export const SECRETS_KEY_FORMAT =
  "must be 64 hex characters (32 bytes, e.g. `openssl rand -hex 32`), or a comma-separated list of <version>:<64 hex> keys, newest first";

/**
 * Parses SECRETS_KEY. A bare key is version 1. To rotate, put the new key first with a higher
 * version and keep the old ones after it: new values are sealed with the first key, and every
 * listed version still opens what it sealed.
 */
export function parseKeyring(text: string): Keyring {
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error(SECRETS_KEY_FORMAT);
  const keys: SecretKey[] = [];
  for (const entry of entries) {
    const match = ENTRY.exec(entry);
    if (!match) throw new Error(SECRETS_KEY_FORMAT);
    // With several keys a missing version would be ambiguous, so only a lone key may omit it.
    if (match[1] === undefined && entries.length > 1) throw new Error("SECRETS_KEY: with several keys, each needs its <version>: prefix");
    const version = match[1] === undefined ? 1 : Number(match[1]);
    if (version < 1) throw new Error("SECRETS_KEY: key versions start at 1");
    if (keys.some((key) => key.version === version)) throw new Error(`SECRETS_KEY: version ${version} is listed twice`);
    keys.push({ version, key: Buffer.from(match[2]!, "hex") });
  }
  return { current: keys[0]!, byVersion: new Map(keys.map((key) => [key.version, key])) };
}

/** A fresh key in SECRETS_KEY form, for local installs that did not set one. */
export function generateSecretsKey(version = 1): string {
  return `${version}:${randomBytes(32).toString("hex")}`;
}
