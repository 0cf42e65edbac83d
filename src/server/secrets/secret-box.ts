import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Keyring } from "./keyring";

/**
 * Whose secret this is and what it is for. It is bound into every sealed value as additional
 * data, so a value copied to another row, owner or column no longer opens.
 */
export interface SecretContext {
  /** The owning row, e.g. `user:<id>` or `organization:<id>`. */
  owner: string;
  /** What the secret is for, e.g. `oauth-token`, `waf-credentials`, `webhook-signing`. */
  purpose: string;
  /** The field it is stored in, e.g. `accessToken`. */
  field: string;
}

export class SecretOpenError extends Error {
  constructor(reason: string) {
    super(`Cannot open sealed secret: ${reason}`);
    this.name = "SecretOpenError";
  }
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** `v<key version>:` then base64url(iv ‖ tag ‖ ciphertext). */
const SEALED = /^v(\d{1,6}):([A-Za-z0-9_-]+)$/;

// JSON of an array is an unambiguous encoding: no owner/purpose/field split can collide with another.
const additionalData = ({ owner, purpose, field }: SecretContext) => Buffer.from(JSON.stringify([owner, purpose, field]), "utf8");

/** True when the value has the sealed form (it says nothing about whether it opens). */
export function isSealed(value: string): boolean {
  const match = SEALED.exec(value);
  return match !== null && Buffer.from(match[2]!, "base64url").length >= IV_BYTES + TAG_BYTES;
}

export interface SecretBox {
  seal(plaintext: string, context: SecretContext): string;
  /** Throws SecretOpenError when the value is not sealed, was tampered with, or belongs to another context or key. */
  open(sealed: string, context: SecretContext): string;
}

/** AES-256-GCM with a random 96-bit IV per value, sealed with the keyring's current key. */
export function createSecretBox(keyring: Keyring): SecretBox {
  return {
    seal(plaintext, context) {
      const { version, key } = keyring.current;
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(additionalData(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `v${version}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url")}`;
    },
    open(sealed, context) {
      const match = SEALED.exec(sealed);
      if (!match) throw new SecretOpenError("not a sealed value");
      const secretKey = keyring.byVersion.get(Number(match[1]));
      if (!secretKey) throw new SecretOpenError(`key version ${match[1]} is not in SECRETS_KEY`);
      const bytes = Buffer.from(match[2]!, "base64url");
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretOpenError("too short");
      const decipher = createDecipheriv("aes-256-gcm", secretKey.key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(context));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        // GCM cannot tell a flipped bit from a wrong key or context; neither can we.
        throw new SecretOpenError("it was altered, or sealed for another owner, purpose, field or key");
      }
    },
  };
}
