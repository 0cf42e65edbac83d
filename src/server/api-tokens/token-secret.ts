import { createHash, randomBytes } from "node:crypto";

/** Every secret starts with this, so leaked tokens are recognisable (secret scanners, log redaction). */
export const TOKEN_PREFIX = "flt_";
const SECRET_BYTES = 30;
/** How much of the secret lists show: enough to tell tokens apart, far too little to guess the rest. */
const SHOWN_CHARS = TOKEN_PREFIX.length + 8;

export const TOKEN_PATTERN = /^flt_[A-Za-z0-9_-]{40}$/;

/** A new secret: 240 random bits, base64url. */
export function generateTokenSecret(): string {
  return TOKEN_PREFIX + randomBytes(SECRET_BYTES).toString("base64url");
}

/** A fast hash is right here: the secret has 240 bits of entropy, so there is nothing to brute-force. */
export function hashTokenSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function displayPrefix(secret: string): string {
  return secret.slice(0, SHOWN_CHARS);
}
